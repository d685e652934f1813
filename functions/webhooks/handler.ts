import { sqsBatchHandler } from '#shared/queue/consumer';
import { WebhookJob } from '#shared/webhooks/job';
import { laneOf, processWebhookBatch } from './batch.ts';

/** SQS (webhooks queue) → one signed POST per job, retried by re-queueing with a delay. */
// A session's first attempts go out one at a time, in the order they were queued (the order of its
// messages); the batch's sessions are claimed and recorded together; retries do not wait for them.
export const handler = sqsBatchHandler(WebhookJob, (items) => processWebhookBatch(items.map((i) => i.body)));

/** The lane of a raw webhooks-queue body for the local poller (`laneOf`). */
export function webhookLane(body: string): string | undefined {
  return laneOf(JSON.parse(body));
}
