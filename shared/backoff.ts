/**
 * The one retry shape in the service (host reconnects, event re-enqueueing, webhook retries): retry
 * `n` (0 for the first) waits `baseMs·2ⁿ`, capped at `capMs`, times a random factor drawn from
 * `jitter`, and never more than the cap. The jitter keeps retries that failed together from
 * retrying together, at the cap too.
 */
export interface Backoff {
  baseMs: number;
  capMs: number;
  /** The random factor's range, e.g. `[0.5, 1]` (half to all of the wait) or `[0.8, 1.2]` (±20 %). */
  jitter: readonly [low: number, high: number];
}

/** Milliseconds to wait before retry `retry` (0-based). `random` is in [0, 1), as Math.random. */
export function backoffDelay(retry: number, b: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(b.capMs, b.baseMs * 2 ** Math.max(0, retry));
  const [low, high] = b.jitter;
  return Math.round(Math.min(b.capMs, ceiling * (low + (high - low) * random())));
}
