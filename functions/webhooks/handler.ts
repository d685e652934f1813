import { sqsHandler } from '#shared/queue/consumer';
import { WebhookJob } from '#shared/webhooks/job';
import { processWebhookJob } from './deliver.ts';

/** SQS (webhooks queue) → one signed POST per job, retried by re-queueing with a delay. */
// Deliveries are independent: one slow receiver must not hold up the rest of the batch.
export const handler = sqsHandler(WebhookJob, (job) => processWebhookJob(job), { concurrent: true });
