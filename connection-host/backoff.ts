import { type Backoff, backoffDelay } from '#shared/backoff';

/**
 * The host's waits, in the one backoff shape (shared/backoff.ts). Each lies between half and all of
 * the capped exponential, so sessions that dropped together do not all come back at once.
 */
const JITTER: Backoff['jitter'] = [0.5, 1];

/**
 * Reconnects (docs/sessions.md): RECONNECT_BASE_MS doubling, capped at RECONNECT_MAX_DELAY_MS
 * (`capMs`, 60 s unless configured). `retry` 0 is the first; retries never stop, so any count works.
 */
export const reconnectDelay = (retry: number, baseMs: number, capMs = 60_000, random?: () => number) =>
  backoffDelay(retry, { baseMs, capMs: Math.max(capMs, baseMs), jitter: JITTER }, random);

/** Enqueueing a host event again: 200 ms doubling, capped at 5 s. `retry` 0 is the first. */
export const emitRetryDelay = (retry: number, random?: () => number) =>
  backoffDelay(retry, { baseMs: 200, capMs: 5_000, jitter: JITTER }, random);
