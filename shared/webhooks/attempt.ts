import { count } from '../metrics/metrics.ts';
import {
  guardedStatus,
  TargetNotAllowedError,
  TargetTimeoutError,
  TargetUnreachableError,
} from '../outbound/guard.ts';
import { parseRetryAfter } from './backoff.ts';
import { hostOf, isApprovedHost } from './config.ts';
import { POST_TIMEOUT_MS } from './job.ts';
import type { AttemptRecord, Delivery } from './lifecycle.ts';
import { noteAnswer } from './slow-tenants.ts';
import { currentTarget, headersFor } from './target.ts';

/*
 * One webhook POST and what its answer means (delivered, retry, failed), with no claim and no
 * record: the webhooks consumer and the events consumer's first attempts both make it.
 */

const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  record: AttemptRecord;
  retryAfterMs?: number;
}

/** What a POST needs of its delivery. */
type Sendable = Pick<Delivery, 'id' | 'tenantId' | 'sessionId' | 'event' | 'body'> & { round?: number };

/** One POST with the configuration as it is now (a fixed URL or rotated secret applies to retries). */
export async function attempt(d: Sendable, n: number): Promise<AttemptResult> {
  const result = await post(d, n);
  if (result.record.url !== null) {
    count('webhookAttempts');
    noteAnswer(d.tenantId, result.record.durationMs);
  }
  count(result.record.outcome === 'delivered' ? 'webhookDelivered' : 'webhookFailures');
  return result;
}

async function post(d: Sendable, n: number): Promise<AttemptResult> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  const base = { round: d.round ?? 0, attempt: n, at };
  const done = (
    outcome: AttemptRecord['outcome'],
    url: string | null,
    statusCode: number | null,
    error: string | null,
  ) => ({
    ...base,
    url,
    statusCode,
    error,
    outcome,
    durationMs: Math.round(performance.now() - t0),
  });

  const cfg = await currentTarget(d.tenantId, d.sessionId, d.event);
  if (!cfg.enabled || !cfg.webhookUrl) {
    return { record: done('failed', null, null, 'webhook disabled or no URL configured') };
  }
  const url = cfg.webhookUrl;
  if (!isApprovedHost(hostOf(url), cfg.approvedDomains)) {
    return { record: done('failed', url, null, `host ${hostOf(url)} is not an approved domain`) };
  }
  const headers = headersFor(cfg, { deliveryId: d.id, event: d.event, attempt: n, body: d.body });
  try {
    // The answer is read to the end (at most MAX_RESPONSE_BYTES): a fully read answer leaves its
    // connection free for the next delivery, a cancelled one closes it.
    const res = await guardedStatus(
      url,
      { method: 'POST', headers, body: d.body },
      { timeoutMs: POST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
    );
    const s = res.status;
    if (s >= 200 && s < 300) return { record: done('delivered', url, s, null) };
    const retryable = s >= 500 || s === 429;
    const error = s >= 300 && s < 400 ? `HTTP ${s} (redirects are not followed)` : `HTTP ${s}`;
    return {
      record: done(retryable ? 'retry' : 'failed', url, s, error),
      retryAfterMs: retryable ? parseRetryAfter(res.headers['retry-after'] ?? null) : undefined,
    };
  } catch (err) {
    if (err instanceof TargetNotAllowedError) return { record: done('failed', url, null, err.message) };
    const e = (err instanceof TargetUnreachableError ? err.cause : err) as NodeJS.ErrnoException;
    const error =
      err instanceof TargetTimeoutError ? `timeout after ${POST_TIMEOUT_MS} ms` : (e.code ?? e.message);
    return { record: done('retry', url, null, String(error).slice(0, 200)) };
  }
}
