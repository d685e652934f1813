import { describe, expect, it } from 'vitest';
import { commandQueue } from '#shared/aws/resources';
import { bounceSeconds } from './command-queues.ts';

describe('a command put back for the host holding its shard', () => {
  it('is visible again at once the first few times, then after a growing wait', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(bounceSeconds)).toEqual([
      0, 0, 0, 0, 1, 2, 4, 8, 16, 20, 20,
    ]);
  });

  it('outlasts a dead host’s lease TTL (15 s) and a hand-over many times before the dead-letter queue', () => {
    const { maxReceiveCount } = commandQueue(0);
    let waited = 0;
    for (let n = 1; n < maxReceiveCount; n++) waited += bounceSeconds(n);
    expect(waited).toBeGreaterThan(600);
  });
});
