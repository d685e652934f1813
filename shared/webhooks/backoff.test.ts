import { describe, expect, it } from 'vitest';
import { delaySeconds, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './backoff.ts';

describe('backoff', () => {
  const cfg = { baseMs: 10_000, maxDelayMs: 900_000 };
  it('doubles with ±20 % jitter, capped at 15 minutes, about an hour in all', () => {
    expect(retryDelayMs(1, cfg, undefined, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(2, cfg, undefined, () => 0)).toBe(16_000);
    expect(retryDelayMs(3, cfg, undefined, () => 1)).toBe(48_000);
    expect(retryDelayMs(9, cfg, undefined, () => 1)).toBe(900_000);
    // At the cap the waits still spread (shared/backoff.ts), so failures together do not retry together.
    expect(retryDelayMs(9, cfg, undefined, () => 0)).toBe(720_000);
    let total = 0;
    for (let a = 1; a < MAX_ATTEMPTS; a++) total += retryDelayMs(a, cfg, undefined, () => 0.5);
    expect(total / 60_000).toBeGreaterThan(45);
    expect(total / 60_000).toBeLessThan(65);
  });

  it('honours a longer Retry-After and rounds to whole SQS seconds', () => {
    expect(retryDelayMs(1, cfg, 60_000, () => 0.5)).toBe(60_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(delaySeconds(200)).toBe(0);
    expect(delaySeconds(600)).toBe(1);
    expect(delaySeconds(1_600)).toBe(2);
    expect(delaySeconds(5_000_000)).toBe(900);
  });
});
