import { sqsHandler } from '#shared/queue/consumer';
import { processWebhookJob } from '#shared/webhooks/deliver';
import { WebhookJob } from '#shared/webhooks/job';

/** SQS (webhooks queue) → one signed POST per job, retried by re-queueing with a delay. */
export const handler = sqsHandler(WebhookJob, (job) => processWebhookJob(job));
