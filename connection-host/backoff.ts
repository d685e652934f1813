/** Capped exponential backoff with full jitter: attempt 0 → up to `baseMs`, doubling to `capMs`. */
export function backoffDelay(attempt: number, baseMs = 1000, capMs = 30_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
