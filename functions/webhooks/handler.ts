import { sqsHandler } from '#shared/queue/consumer';
import { WebhookJob } from '#shared/webhooks/job';
import { processWebhookJob, processWebhookJobsInOrder } from './deliver.ts';

/** SQS (webhooks queue) → one signed POST per job, retried by re-queueing with a delay. */
// A session's first attempts go out one at a time, in the order they were queued (the order of its
// messages); other sessions' deliveries and retries do not wait for them.
const laneOf = (job: { tenantId: string; sessionId?: string; deliveryId: string; attempt: number }) =>
  job.sessionId && job.attempt === 1
    ? `session:${job.tenantId}:${job.sessionId}`
    : `delivery:${job.deliveryId}`;

export const handler = sqsHandler(WebhookJob, (job) => processWebhookJob(job), {
  groupBy: laneOf,
  handleGroup: (items) => processWebhookJobsInOrder(items.map((i) => i.body)),
});

/** The lane of a raw webhooks-queue body for the local poller (same key as `groupBy`). */
export function webhookLane(body: string): string | undefined {
  return laneOf(JSON.parse(body));
}
