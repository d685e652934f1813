import { z } from 'zod';
import { names } from '../aws/names.ts';
import { queues } from '../aws/resources.ts';
import { batchesOf, sendJson, sendJsonBatch } from '../queue/send.ts';
import { delaySeconds } from './backoff.ts';

/** One attempt to make, on the webhooks queue. The payload stays in the delivery record. */
export const WebhookJob = z.object({
  tenantId: z.string().min(1),
  deliveryId: z.string().min(1),
  round: z.number().int().min(0),
  attempt: z.number().int().min(1),
  /** The delivery's session: the local consumer makes a session's first attempts one at a time, in order. */
  sessionId: z.string().optional(),
  /**
   * A new delivery's first attempt also carries what it sends (the record's `event` and `body`, up
   * to PAYLOAD_IN_JOB_MAX characters), so the consumer need not read the record back before POSTing.
   */
  event: z.string().optional(),
  body: z.string().optional(),
  /**
   * Set (epoch ms) when the delivery record is not stored yet: the claim of this first attempt
   * creates it, with this creation time (one write per delivery less; docs/events.md).
   */
  createdAt: z.number().int().optional(),
});
export type WebhookJob = z.infer<typeof WebhookJob>;

/** Payloads up to this many characters travel in the job (SQS takes 256 KiB a message). */
export const PAYLOAD_IN_JOB_MAX = 64 * 1024;

/** The first attempt of a delivery just created: with its payload when small enough. */
export function firstAttempt(d: {
  tenantId: string;
  id: string;
  sessionId: string;
  event: string;
  body: string;
}): WebhookJob {
  const job: WebhookJob = {
    tenantId: d.tenantId,
    deliveryId: d.id,
    round: 0,
    attempt: 1,
    sessionId: d.sessionId,
  };
  return carriesPayload(d) ? { ...job, event: d.event, body: d.body } : job;
}

/** Whether a delivery's first attempt can carry its payload (and so create its record when claimed). */
export const carriesPayload = (d: { body: string }) => d.body.length <= PAYLOAD_IN_JOB_MAX;

/** The first attempt of a delivery whose record is not written: its claim creates it. */
export function firstAttemptCreating(
  d: { tenantId: string; id: string; sessionId: string; event: string; body: string },
  createdAtMs: number,
): WebhookJob {
  return { ...firstAttempt(d), createdAt: createdAtMs };
}

/** How long one attempt's POST may take, answer included (shared/webhooks/attempt.ts). */
export const POST_TIMEOUT_MS = 10_000;

/** A claim older than this belongs to a consumer that died mid-POST: another may take it over. */
export const STALE_CLAIM_MS = 3 * POST_TIMEOUT_MS;

/**
 * How much later the first attempt of a delivery whose POST may be under way elsewhere is queued:
 * by then that POST has ended and its outcome is recorded, which the job finds and leaves alone; if
 * its process died, the job finds no record and makes the attempt (docs/events.md, "Delivery").
 */
export const TAKEOVER_DELAY_MS = 2 * POST_TIMEOUT_MS;

/** The job for the attempt after `job` (without the payload: a retry reads the record). */
export function nextAttempt(job: WebhookJob): WebhookJob {
  const { event: _event, body: _body, createdAt: _createdAt, ...rest } = job;
  return { ...rest, attempt: job.attempt + 1 };
}

export function sendJob(job: WebhookJob, delayMs = 0): Promise<void> {
  return sendJson(names.webhooksQueue(), job, { delaySeconds: delaySeconds(delayMs) });
}

/**
 * Queues first attempts in the given order, up to ten to a request (fewer when their payloads are
 * large: `batchesOf`), due after `delayMs`; throws if any was not queued.
 */
export async function sendJobs(jobs: WebhookJob[], delayMs = 0): Promise<void> {
  for (const batch of batchesOf(jobs)) {
    const errors = await sendJsonBatch(
      names.webhooksQueue(),
      batch,
      delayMs ? delaySeconds(delayMs) : undefined,
    );
    const failed = errors.find((e) => e !== undefined);
    if (failed) throw failed;
  }
}

/** A delivery that will not be tried again, kept 14 days on the webhooks dead-letter queue. */
export function sendToDeadLetter(job: WebhookJob & { event: string; reason: string }): Promise<void> {
  return sendJson(names.deadLetterQueue(queues.webhooks), job);
}
