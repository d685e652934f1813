import { describe, expect, it } from 'vitest';
import { emitRetryDelay, reconnectDelay } from './backoff.ts';

const lowest = () => 0;
const highest = () => 0.999_999;

describe('host backoff', () => {
  it('reconnects after RECONNECT_BASE_MS doubling, each wait half to all of it, up to 30 s', () => {
    const bounds = (retry: number) => [
      reconnectDelay(retry, 1000, lowest),
      reconnectDelay(retry, 1000, highest),
    ];
    expect(bounds(0)).toEqual([500, 1000]);
    expect(bounds(1)).toEqual([1000, 2000]);
    expect(bounds(4)).toEqual([8000, 16_000]);
    expect(bounds(5)).toEqual([15_000, 30_000]);
    expect(bounds(20)).toEqual([15_000, 30_000]);
    expect(reconnectDelay(0, 50, highest)).toBe(50);
  });

  it('retries an event enqueue from 200 ms up to 5 s', () => {
    expect([emitRetryDelay(0, highest), emitRetryDelay(3, highest), emitRetryDelay(9, highest)]).toEqual([
      200, 1600, 5000,
    ]);
    expect(emitRetryDelay(9, lowest)).toBe(2500);
  });
});
