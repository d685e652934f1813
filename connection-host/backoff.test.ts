import { describe, expect, it } from 'vitest';
import { emitRetryDelay, reconnectDelay } from './backoff.ts';

const lowest = () => 0;
const highest = () => 0.999_999;

describe('host backoff', () => {
  it('reconnects after RECONNECT_BASE_MS doubling, each wait half to all of it, up to the cap', () => {
    const bounds = (retry: number, cap?: number) => [
      reconnectDelay(retry, 1000, cap, lowest),
      reconnectDelay(retry, 1000, cap, highest),
    ];
    expect(bounds(0)).toEqual([500, 1000]);
    expect(bounds(1)).toEqual([1000, 2000]);
    expect(bounds(4)).toEqual([8000, 16_000]);
    expect(bounds(5)).toEqual([16_000, 32_000]);
    expect(bounds(6)).toEqual([30_000, 60_000]);
    // Retries never stop: a huge attempt count still waits at most the cap.
    expect(bounds(10_000)).toEqual([30_000, 60_000]);
    expect(bounds(20, 30_000)).toEqual([15_000, 30_000]);
    expect(reconnectDelay(0, 50, undefined, highest)).toBe(50);
    // A cap below the base is raised to it.
    expect(reconnectDelay(3, 500, 100, highest)).toBe(500);
  });

  it('retries an event enqueue from 200 ms up to 5 s', () => {
    expect([emitRetryDelay(0, highest), emitRetryDelay(3, highest), emitRetryDelay(9, highest)]).toEqual([
      200, 1600, 5000,
    ]);
    expect(emitRetryDelay(9, lowest)).toBe(2500);
  });
});
