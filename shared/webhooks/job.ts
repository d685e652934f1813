import { z } from 'zod';
import { names } from '../aws/names.ts';
import { queues } from '../aws/resources.ts';
import { BATCH_MAX_ENTRIES, sendJson, sendJsonBatch } from '../queue/send.ts';
import { delaySeconds } from './backoff.ts';

/** One attempt to make, on the webhooks queue. The payload stays in the delivery record. */
export const WebhookJob = z.object({
  tenantId: z.string().min(1),
  deliveryId: z.string().min(1),
  round: z.number().int().min(0),
  attempt: z.number().int().min(1),
  /** The delivery's session: the local consumer makes a session's first attempts one at a time, in order. */
  sessionId: z.string().optional(),
});
export type WebhookJob = z.infer<typeof WebhookJob>;

export function sendJob(job: WebhookJob, delayMs = 0): Promise<void> {
  return sendJson(names.webhooksQueue(), job, { delaySeconds: delaySeconds(delayMs) });
}

/** Queues first attempts in the given order, ten to a request; throws if any was not queued. */
export async function sendJobs(jobs: WebhookJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += BATCH_MAX_ENTRIES) {
    const errors = await sendJsonBatch(names.webhooksQueue(), jobs.slice(i, i + BATCH_MAX_ENTRIES));
    const failed = errors.find((e) => e !== undefined);
    if (failed) throw failed;
  }
}

/** A delivery that will not be tried again, kept 14 days on the webhooks dead-letter queue. */
export function sendToDeadLetter(job: WebhookJob & { event: string; reason: string }): Promise<void> {
  return sendJson(names.deadLetterQueue(queues.webhooks), job);
}
