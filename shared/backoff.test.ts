import { describe, expect, it } from 'vitest';
import { type Backoff, backoffDelay } from './backoff.ts';

describe('backoffDelay', () => {
  const b: Backoff = { baseMs: 1000, capMs: 30_000, jitter: [0.5, 1] };

  it('doubles from the base, retry 0 first', () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(n, b, () => 0.999_999))).toEqual([
      1000, 2000, 4000, 8000, 16_000,
    ]);
  });

  it('spreads each wait over the jitter range', () => {
    expect(backoffDelay(2, b, () => 0)).toBe(2000);
    expect(backoffDelay(2, b, () => 0.5)).toBe(3000);
    const pm20: Backoff = { baseMs: 1000, capMs: 30_000, jitter: [0.8, 1.2] };
    expect(backoffDelay(2, pm20, () => 0)).toBe(3200);
    expect(backoffDelay(2, pm20, () => 0.5)).toBe(4000);
    expect(backoffDelay(2, pm20, () => 0.999_999)).toBe(4800);
  });

  it('keeps jittering at the cap and never exceeds it', () => {
    expect(backoffDelay(10, b, () => 0)).toBe(15_000);
    expect(backoffDelay(10, b, () => 0.999_999)).toBe(30_000);
    expect(backoffDelay(10, { ...b, jitter: [0.8, 1.2] }, () => 0.999_999)).toBe(30_000);
    expect(backoffDelay(10, { ...b, jitter: [0.8, 1.2] }, () => 0)).toBe(24_000);
    expect(backoffDelay(5000, b, () => 0.5)).toBe(22_500);
  });

  it('treats a negative retry as the first', () => {
    expect(backoffDelay(-1, b, () => 0)).toBe(500);
  });
});
