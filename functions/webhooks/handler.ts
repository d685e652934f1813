import { sqsBatchHandler } from '#shared/queue/consumer';
import { WebhookJob } from '#shared/webhooks/job';
import { isSlow } from '#shared/webhooks/slow-tenants';
import { laneOf, processWebhookBatch } from './batch.ts';

/** SQS (webhooks queue) → one signed POST per job, retried by re-queueing with a delay. */
// A session's first attempts go out one at a time, in the order they were queued (the order of its
// messages); the batch's sessions are claimed and recorded together; retries do not wait for them.
export const handler = sqsBatchHandler(WebhookJob, (items) => processWebhookBatch(items.map((i) => i.body)));

/**
 * The lane of a raw webhooks-queue body for the local poller (`laneOf`); a slow tenant's job gets a
 * lane of its own, run apart from the batches other tenants share (`isolatedWebhookLane`).
 */
export function webhookLane(body: string): string | undefined {
  const job = JSON.parse(body) as WebhookJob;
  return isSlow(job.tenantId) ? `${SLOW_LANE}${job.tenantId}:${job.deliveryId}` : laneOf(job);
}

const SLOW_LANE = 'slow:';

/** Whether a lane runs on its own instead of joining the batch of the lanes ready with it. */
export const isolatedWebhookLane = (lane: string) => lane.startsWith(SLOW_LANE);
