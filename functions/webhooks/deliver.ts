import { randomUUID } from 'node:crypto';
import { logger } from '#shared/log/logger';
import { backoffConfig, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from '#shared/webhooks/backoff';
import { hostOf, isApprovedHost } from '#shared/webhooks/config';
import { resolveConfig } from '#shared/webhooks/config-store';
import { guardedFetch, TargetNotAllowedError, TargetTimeoutError } from '#shared/webhooks/guard';
import { sendJob, sendToDeadLetter, type WebhookJob } from '#shared/webhooks/job';
import {
  type AttemptRecord,
  claimAttempt,
  type Delivery,
  finishAttempt,
  getDelivery,
  markDeadLettered,
} from '#shared/webhooks/repository';
import { deliveryHeaders } from './sign.ts';

export const POST_TIMEOUT_MS = 10_000;
/** A claim older than this belongs to a consumer that died mid-POST. */
const STALE_CLAIM_MS = 3 * POST_TIMEOUT_MS;
const MAX_RESPONSE_BYTES = 64 * 1024;

type Outcome = AttemptRecord['outcome'];
interface AttemptResult {
  record: AttemptRecord;
  retryAfterMs?: number;
}

/** Runs attempt `job.attempt` of a delivery at most once, then schedules the next one or gives up. */
export async function processWebhookJob(job: WebhookJob): Promise<void> {
  const token = randomUUID();
  const claimed = await claimJob(job, token);
  if (!claimed) return;
  await settle(job, claimed, token, await attempt(claimed, job.attempt));
}

/**
 * Several jobs whose POSTs must leave in the given order (a session's first attempts): the POSTs go
 * one after another; the next job is claimed while the current POST is under way (so no claim
 * waits longer than one POST), and each outcome is recorded while the next POST is under way.
 * Answers, per job, whether it was handled (false: SQS delivers it again).
 */
export async function processWebhookJobsInOrder(jobs: WebhookJob[]): Promise<boolean[]> {
  const tokens = jobs.map(() => randomUUID());
  const claim = (i: number) =>
    claimJob(jobs[i]!, tokens[i]!).then(
      (value) => ({ ok: true as const, value }),
      (err: unknown) => ({ ok: false as const, err }),
    );
  const settled: Array<Promise<boolean>> = [];
  let next = jobs.length ? claim(0) : undefined;
  for (let i = 0; i < jobs.length; i++) {
    const c = await next!;
    next = i + 1 < jobs.length ? claim(i + 1) : undefined;
    const job = jobs[i]!;
    if (!c.ok) {
      logger.error({ err: c.err, deliveryId: job.deliveryId }, 'webhook claim failed; SQS will retry it');
      settled.push(Promise.resolve(false));
      continue;
    }
    if (!c.value) {
      settled.push(Promise.resolve(true));
      continue;
    }
    const claimed = c.value;
    const result = await attempt(claimed, job.attempt);
    settled.push(
      settle(job, claimed, tokens[i]!, result).then(
        () => true,
        (err) => {
          logger.error(
            { err, deliveryId: job.deliveryId },
            'webhook outcome not recorded; SQS will retry it',
          );
          return false;
        },
      ),
    );
  }
  return Promise.all(settled);
}

async function claimJob(job: WebhookJob, token: string): Promise<Delivery | undefined> {
  return (
    (await claimAttempt(job.tenantId, job.deliveryId, job.round, job.attempt, token)) ??
    (await resumeOrSkip(job, token))
  );
}

/** Records the outcome of an attempt: delivered, a retry scheduled, or failed for good. */
async function settle(
  job: WebhookJob,
  claimed: Delivery,
  token: string,
  result: AttemptResult,
): Promise<void> {
  const { record, retryAfterMs } = result;
  const log = {
    tenantId: job.tenantId,
    deliveryId: job.deliveryId,
    event: claimed.event,
    round: job.round,
    attempt: job.attempt,
    statusCode: record.statusCode,
    error: record.error,
    durationMs: record.durationMs,
  };
  const final = record.outcome === 'retry' && job.attempt >= MAX_ATTEMPTS ? 'failed' : record.outcome;
  const finalRecord = { ...record, outcome: final };

  if (final === 'retry') {
    const delay = retryDelayMs(job.attempt, backoffConfig(), retryAfterMs);
    const nextAttemptAt = new Date(Date.now() + delay).toISOString();
    const saved = await finishAttempt(claimed, token, finalRecord, { status: 'retrying', nextAttemptAt });
    if (!saved) return logger.warn(log, 'webhook claim lost; outcome not recorded');
    await sendJob({ ...job, attempt: job.attempt + 1 }, delay);
    logger.info({ ...log, retryInMs: delay }, 'webhook attempt failed; retry scheduled');
    return;
  }
  const saved = await finishAttempt(claimed, token, finalRecord, {
    status: final === 'delivered' ? 'delivered' : 'failed',
  });
  if (!saved) return logger.warn(log, 'webhook claim lost; outcome not recorded');
  if (final === 'delivered') {
    logger.info(log, 'webhook delivered');
    return;
  }
  await deadLetter(job, claimed.event, record.error ?? 'failed');
  logger.warn(log, 'webhook failed for good; sent to the dead-letter queue');
}

/**
 * The claim failed: a repeated SQS message, a message from an older round, or a retry whose
 * previous consumer stopped half-way. Finish that consumer's work where it is safe to.
 */
async function resumeOrSkip(job: WebhookJob, token: string): Promise<Delivery | undefined> {
  const d = await getDelivery(job.tenantId, job.deliveryId);
  if (!d || d.round !== job.round || d.attempts !== job.attempt) return undefined;
  if (d.status === 'sending' && d.claimedAt !== undefined && Date.now() - d.claimedAt > STALE_CLAIM_MS) {
    return claimAttempt(job.tenantId, job.deliveryId, job.round, job.attempt, token, d.claimToken);
  }
  if (d.status === 'retrying') {
    // The next attempt may never have been queued; a duplicate is dropped by its claim.
    const due = d.nextAttemptAt ? Date.parse(d.nextAttemptAt) - Date.now() : 0;
    await sendJob({ ...job, attempt: job.attempt + 1 }, Math.max(0, due));
  } else if (d.status === 'failed' && !d.dlqAt) {
    await deadLetter(job, d.event, d.lastError ?? 'failed');
  }
  return undefined;
}

async function deadLetter(job: WebhookJob, event: string, reason: string): Promise<void> {
  await sendToDeadLetter({ ...job, event, reason });
  await markDeadLettered(job.tenantId, job.deliveryId);
}

/** One POST with the configuration as it is now (a fixed URL or rotated secret applies to retries). */
async function attempt(d: Delivery, n: number): Promise<AttemptResult> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  const base = { round: d.round, attempt: n, at };
  const done = (outcome: Outcome, url: string | null, statusCode: number | null, error: string | null) => ({
    ...base,
    url,
    statusCode,
    error,
    outcome,
    durationMs: Math.round(performance.now() - t0),
  });

  const cfg = await resolveConfig(d.tenantId, d.sessionId);
  if (!cfg.enabled || !cfg.webhookUrl) {
    return { record: done('failed', null, null, 'webhook disabled or no URL configured') };
  }
  const url = cfg.webhookUrl;
  if (!isApprovedHost(hostOf(url), cfg.approvedDomains)) {
    return { record: done('failed', url, null, `host ${hostOf(url)} is not an approved domain`) };
  }
  const headers = deliveryHeaders({
    deliveryId: d.id,
    event: d.event,
    attempt: n,
    body: d.body,
    secret: cfg.secretToken,
  });
  try {
    const res = await guardedFetch(
      url,
      { method: 'POST', headers, body: d.body },
      { timeoutMs: POST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
    );
    await res.body?.cancel().catch(() => {});
    const s = res.status;
    if (s >= 200 && s < 300) return { record: done('delivered', url, s, null) };
    const retryable = s >= 500 || s === 429;
    const error = s >= 300 && s < 400 ? `HTTP ${s} (redirects are not followed)` : `HTTP ${s}`;
    return {
      record: done(retryable ? 'retry' : 'failed', url, s, error),
      retryAfterMs: retryable ? parseRetryAfter(res.headers.get('retry-after')) : undefined,
    };
  } catch (err) {
    if (err instanceof TargetNotAllowedError) return { record: done('failed', url, null, err.message) };
    const e = err as NodeJS.ErrnoException;
    const error =
      err instanceof TargetTimeoutError ? `timeout after ${POST_TIMEOUT_MS} ms` : (e.code ?? e.message);
    return { record: done('retry', url, null, String(error).slice(0, 200)) };
  }
}
