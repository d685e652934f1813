import { type Backoff, backoffDelay } from '../backoff.ts';
import { env } from '../config/env.ts';
import { SQS_MAX_DELAY_SECONDS } from '../queue/limits.ts';
/** Up to this many POSTs per delivery (the first one included). */
export const MAX_ATTEMPTS = 10;
/** The longest delay SQS takes on a message. */
export const MAX_DELAY_MS = SQS_MAX_DELAY_SECONDS * 1000;

export interface BackoffConfig {
  baseMs: number;
  maxDelayMs: number;
}

export function backoffConfig(): BackoffConfig {
  const cfg = env();
  return {
    baseMs: cfg.WEBHOOK_RETRY_BASE_MS,
    maxDelayMs: Math.min(MAX_DELAY_MS, cfg.WEBHOOK_RETRY_MAX_DELAY_MS),
  };
}

/** Webhook retries spread ±20 % around the doubling schedule. */
const JITTER: Backoff['jitter'] = [0.8, 1.2];

/**
 * Delay before attempt `attempt + 1` after attempt `attempt` failed: base·2^(attempt−1), ±20 % jitter,
 * capped (shared/backoff.ts). With the 10 s default the nine waits add up to about 50 minutes. A
 * `Retry-After` from the receiver is honoured when it asks for longer (still capped).
 */
export function retryDelayMs(
  attempt: number,
  cfg: BackoffConfig = backoffConfig(),
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const backoff = backoffDelay(
    attempt - 1,
    { baseMs: cfg.baseMs, capMs: cfg.maxDelayMs, jitter: JITTER },
    random,
  );
  return Math.round(Math.min(cfg.maxDelayMs, Math.max(backoff, retryAfterMs ?? 0)));
}

/** SQS DelaySeconds is whole seconds: a sub-second wait rounds to 0 or 1, longer ones to the nearest second. */
export function delaySeconds(ms: number): number {
  return Math.min(MAX_DELAY_MS / 1000, Math.max(0, Math.round(ms / 1000)));
}

/** `Retry-After` as seconds or an HTTP date → ms (undefined when absent or unreadable). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
