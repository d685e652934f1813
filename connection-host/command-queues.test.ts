import { describe, expect, it } from 'vitest';
import { commandQueue } from '#shared/aws/resources';
import { bounceSeconds } from './command-queues.ts';

const counts = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('a command put back for the host holding its shard', () => {
  it('with no live holder: visible again at once the first few times, then after a growing wait', () => {
    expect(counts(11).map((n) => bounceSeconds(n))).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 20, 20]);
  });

  it('with a live holder (it consumes the same queue): at once the first eight times, then every second, from the 61st every 5 s', () => {
    expect(counts(11).map((n) => bounceSeconds(n, true))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect([60, 61].map((n) => bounceSeconds(n, true))).toEqual([1, 5]);
    // A holder that does not take it (starting up, failing to receive) has over 12 minutes.
    const { maxReceiveCount } = commandQueue(0);
    let waited = 0;
    for (let n = 1; n < maxReceiveCount; n++) waited += bounceSeconds(n, true);
    expect(waited).toBeGreaterThan(12 * 60);
  });

  it('outlasts a dead host’s lease TTL (15 s) and a hand-over many times before the dead-letter queue', () => {
    const { maxReceiveCount } = commandQueue(0);
    let waited = 0;
    for (let n = 1; n < maxReceiveCount; n++) waited += bounceSeconds(n);
    expect(waited).toBeGreaterThan(3000);
  });

  it('reaches a live holder before the dead-letter queue but by a chance under 1 in 10⁸ with 10 hosts sharing its queue, 1 in 10⁴ with 20', () => {
    const { maxReceiveCount } = commandQueue(0);
    // Each receive goes to one of the hosts consuming the queue, the holder among them.
    expect((1 - 1 / 20) ** maxReceiveCount).toBeLessThan(1e-4);
    expect((1 - 1 / 10) ** maxReceiveCount).toBeLessThan(1e-8);
  });
});
