import { logger } from '#shared/log/logger';
import { dataTable } from '#shared/store/tables';
import { MAX_DELAY_MS } from '#shared/webhooks/backoff';
import { STALE_CLAIM_MS, sendJob, sendJobs, type WebhookJob } from '#shared/webhooks/job';
import type { Delivery } from '#shared/webhooks/repository';

/** What the sweep reads of a delivery. */
type Open = Pick<
  Delivery,
  | 'tenantId'
  | 'id'
  | 'sessionId'
  | 'status'
  | 'round'
  | 'attempts'
  | 'nextAttemptAt'
  | 'claimedAt'
  | 'updatedAt'
>;

/**
 * The job that makes an open delivery's next attempt, and when it is due: pending, its first
 * attempt at once; retrying, the next one at `nextAttemptAt`; sending, the claimed attempt again
 * once the claim is stale (the consumer takes a stale claim over, shared/webhooks/claim.ts).
 */
export function nextJobOf(d: Open): { job: WebhookJob; dueAt: number } {
  const base = { tenantId: d.tenantId, deliveryId: d.id, round: d.round, sessionId: d.sessionId };
  if (d.status === 'sending')
    return { job: { ...base, attempt: d.attempts }, dueAt: (d.claimedAt ?? 0) + STALE_CLAIM_MS };
  const dueAt = d.status === 'retrying' && d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : 0;
  return { job: { ...base, attempt: d.attempts + 1 }, dueAt };
}

/**
 * Re-drives the deliveries a crash may have left without a job on the queue: every pending,
 * retrying or sending delivery whose next attempt is due by now gets that attempt's job again (a
 * claim being under way, its job once the claim is stale). A job that was not lost makes the same
 * attempt, so one of the two finds it claimed or made and does nothing. `npm start` runs it once when
 * it starts on its data directory (scripts/local/service.ts); in the cloud, SQS keeps every job and
 * nothing runs it. It reads the whole table: never on a request's path. Answers how many it queued.
 */
export async function sweepDeliveries(opt: { now?: number; tenantId?: string } = {}): Promise<number> {
  const now = opt.now ?? Date.now();
  const values: Record<string, unknown> = {
    ':type': 'webhook-delivery',
    ':pending': 'pending',
    ':retrying': 'retrying',
    ':sending': 'sending',
  };
  let expression = '#type = :type AND #st IN (:pending, :retrying, :sending)';
  if (opt.tenantId) {
    expression += ' AND tenantId = :tenant';
    values[':tenant'] = opt.tenantId;
  }
  let queued = 0;
  for await (const page of dataTable.scan<Open>({
    expression,
    names: { '#type': 'type', '#st': 'status' },
    values,
  })) {
    const planned = page.map((d) => ({ sending: d.status === 'sending', ...nextJobOf(d) }));
    const dueNow = planned.filter((p) => p.dueAt <= now).map((p) => p.job);
    // A claim still fresh: its job once the claim is stale (only sending ones are due later here;
    // a retry not due yet has its delayed job on the queue).
    const later = planned.filter((p) => p.sending && p.dueAt > now);
    await sendJobs(dueNow);
    await Promise.all(later.map((p) => sendJob(p.job, Math.min(MAX_DELAY_MS, p.dueAt - now))));
    queued += dueNow.length + later.length;
  }
  if (queued) logger.info({ queued }, 'webhook deliveries re-driven after a restart');
  return queued;
}
