import { logger } from '../log/logger.ts';
import type { AttemptResult } from './attempt.ts';
import { backoffConfig, MAX_ATTEMPTS, retryDelayMs } from './backoff.ts';
import { nextAttempt, sendJob, sendToDeadLetter, type WebhookJob } from './job.ts';
import type { Delivery, Outcome } from './lifecycle.ts';
import { finishAttempt, markDeadLettered } from './repository.ts';

/*
 * After a POST: the outcome an attempt's result means for its delivery, recording it under the
 * claim, then queueing the retry or parking the delivery on the dead-letter queue.
 */

/** What an attempt's result means for its delivery: the outcome to store and what follows. */
export interface Settlement {
  outcome: Outcome;
  /** For a retry: when the next attempt is due. */
  delayMs?: number;
  log: Record<string, unknown>;
}

export function settlementOf(job: WebhookJob, event: string, result: AttemptResult): Settlement {
  const { record, retryAfterMs } = result;
  const log = {
    tenantId: job.tenantId,
    deliveryId: job.deliveryId,
    event,
    round: job.round,
    attempt: job.attempt,
    statusCode: record.statusCode,
    error: record.error,
    durationMs: record.durationMs,
  };
  const final = record.outcome === 'retry' && job.attempt >= MAX_ATTEMPTS ? 'failed' : record.outcome;
  const finalRecord = { ...record, outcome: final };
  if (final === 'retry') {
    const delayMs = retryDelayMs(job.attempt, backoffConfig(), retryAfterMs);
    const nextAttemptAt = new Date(Date.now() + delayMs).toISOString();
    return { outcome: { record: finalRecord, status: 'retrying', nextAttemptAt }, delayMs, log };
  }
  return { outcome: { record: finalRecord, status: final === 'delivered' ? 'delivered' : 'failed' }, log };
}

/** Records the outcome of an attempt: delivered, a retry scheduled, or failed for good. */
export async function settle(
  run: { job: WebhookJob; token: string },
  claimed: Delivery,
  result: AttemptResult,
): Promise<void> {
  const plan = settlementOf(run.job, claimed.event, result);
  const saved = await finishAttempt(claimed, run.token, plan.outcome);
  if (!saved) return logger.warn(plan.log, 'webhook claim lost; outcome not recorded');
  await afterSettled(run.job, claimed.event, plan);
}

/** Once the outcome is stored: queue the retry, or dead-letter a delivery that failed for good. */
export async function afterSettled(job: WebhookJob, event: string, plan: Settlement): Promise<void> {
  if (plan.outcome.status === 'retrying') {
    await sendJob(nextAttempt(job), plan.delayMs ?? 0);
    logger.info({ ...plan.log, retryInMs: plan.delayMs }, 'webhook attempt failed; retry scheduled');
    return;
  }
  if (plan.outcome.status === 'delivered') {
    logger.info(plan.log, 'webhook delivered');
    return;
  }
  await deadLetter(job, event, plan.outcome.record.error ?? 'failed');
  logger.warn(plan.log, 'webhook failed for good; sent to the dead-letter queue');
}

/** Parks a delivery that failed for good on the dead-letter queue and marks its record so. */
export async function deadLetter(job: WebhookJob, event: string, reason: string): Promise<void> {
  await sendToDeadLetter({ ...job, event, reason });
  await markDeadLettered(job.tenantId, job.deliveryId);
}
