import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#shared/log/logger';
import type { Lease } from './leases.ts';
import { type LeaseStore, ShardLeases } from './shard-leases.ts';

/** Leases in memory: a shard is free (no owner) or held by one, under a fence that grows per acquisition. */
function memoryStore() {
  const table = new Map<number, { owner?: string; fence: number }>();
  const released: number[] = [];
  const store: LeaseStore = {
    async tryAcquire(shard, owner, ttlMs): Promise<Lease | undefined> {
      const held = table.get(shard);
      if (held?.owner && held.owner !== owner) return undefined;
      const fence = (held?.fence ?? 0) + 1;
      table.set(shard, { owner, fence });
      return { shard, owner, fence, expiresAtMs: Date.now() + ttlMs };
    },
    async renew(shard, owner) {
      return table.get(shard)?.owner === owner;
    },
    async release(shard, owner) {
      const held = table.get(shard);
      if (held?.owner === owner) held.owner = undefined;
      released.push(shard);
    },
    async readLeases() {
      return [...table].map(([shard, l]) => ({
        shard,
        owner: l.owner ?? '',
        fence: l.fence,
        expiresAtMs: l.owner ? Date.now() + 60_000 : 0,
      }));
    },
  };
  return { store, table, released };
}

describe('ShardLeases', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(preset: Array<[number, string]> = []) {
    const mem = memoryStore();
    for (const [shard, owner] of preset) mem.table.set(shard, { owner, fence: 5 });
    const log: string[] = [];
    const handlers = {
      acquired: vi.fn(async (shard: number) => {
        log.push(`acquired ${shard} fence ${leases.guard(shard)?.fence}`);
      }),
      lost: vi.fn(async (shard: number) => {
        log.push(`lost ${shard} fence ${leases.guard(shard)?.fence}`);
      }),
    };
    const leases = new ShardLeases({ hostId: 'h1', shardCount: 3, ttlMs: 3000 }, handlers, logger, mem.store);
    return { ...mem, leases, log };
  }

  it('takes the free shards at start, under their fence, and leaves the held ones', async () => {
    const { leases, log } = setup([[1, 'h2']]);
    await leases.start();
    expect(leases.owned()).toEqual([0, 2]);
    expect(log).toEqual(['acquired 0 fence 1', 'acquired 2 fence 1']);
    expect(leases.guard(2)).toEqual({ shard: 2, owner: 'h1', fence: 1 });
    expect(leases.guard(1)).toBeUndefined();
    await leases.stop();
  });

  it('takes a shard once its holder lets it go, under the next fence', async () => {
    const { leases, table, log } = setup([[1, 'h2']]);
    await leases.start();
    table.set(1, { fence: 5 }); // h2 released it
    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toContain('acquired 1 fence 6');
    expect(leases.owned()).toEqual([0, 1, 2]);
    await leases.stop();
  });

  it('notices a lost shard on the next tick, stops its work while the fence is still known, then forgets it', async () => {
    const { leases, table, log } = setup();
    await leases.start();
    table.set(0, { owner: 'h2', fence: 2 });

    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toContain('lost 0 fence 1');
    expect(leases.owned()).toEqual([1, 2]);
    expect(leases.guard(0)).toBeUndefined();
    await leases.stop();
  });

  it('on stop ticks no more, and releaseAll frees what it held', async () => {
    const { leases, table, released, log } = setup([[1, 'h2']]);
    await leases.start();
    await leases.stop();
    table.set(1, { fence: 5 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(log).toEqual(['acquired 0 fence 1', 'acquired 2 fence 1']);

    await leases.releaseAll();
    expect(released.sort()).toEqual([0, 2]);
    expect(table.get(0)?.owner).toBeUndefined();
    expect(leases.owned()).toEqual([]);
  });

  it('hands over what it holds beyond its share once another host beats: links closed, then the lease released', async () => {
    const mem = memoryStore();
    let hosts = ['h1'];
    const presence = { beat: vi.fn(async () => hosts), leave: vi.fn(async () => {}) };
    const order: string[] = [];
    const handlers = {
      acquired: vi.fn(async () => {}),
      lost: vi.fn(async (shard: number) => {
        order.push(`lost ${shard} while held ${mem.table.get(shard)?.owner}`);
      }),
      load: (shard: number) => (shard === 1 ? 0 : 3),
    };
    const leases = new ShardLeases(
      { hostId: 'h1', shardCount: 4, ttlMs: 3000 },
      handlers,
      logger,
      mem.store,
      presence,
    );
    await leases.start();
    expect(leases.owned()).toEqual([0, 1, 2, 3]);

    hosts = ['h1', 'h2'];
    await vi.advanceTimersByTimeAsync(1000);
    await leases.settled();
    // The lightest (shard 1, no sessions) first, then the highest of the equally loaded.
    expect(order).toEqual(['lost 1 while held h1', 'lost 3 while held h1']);
    expect(mem.released.sort()).toEqual([1, 3]);
    expect(leases.owned()).toEqual([0, 2]);

    // At its share now: it neither takes the free shards back nor hands over more.
    await vi.advanceTimersByTimeAsync(3000);
    expect(leases.owned()).toEqual([0, 2]);
    expect(handlers.lost).toHaveBeenCalledTimes(2);

    await leases.stop();
    await leases.releaseAll();
    expect(presence.leave).toHaveBeenCalled();
  });

  it('renews its other shards while a taken shard is still resuming', async () => {
    const mem = memoryStore();
    const renewals: number[] = [];
    const renewing = mem.store.renew;
    mem.store.renew = async (shard, owner, ttl) => {
      renewals.push(shard);
      return renewing(shard, owner, ttl);
    };
    let finishResume = () => {};
    const handlers = {
      acquired: vi.fn(async (shard: number) => {
        if (shard === 1) await new Promise<void>((r) => (finishResume = r));
      }),
      lost: vi.fn(async () => {}),
    };
    mem.table.set(1, { owner: 'h2', fence: 1 });
    const leases = new ShardLeases({ hostId: 'h1', shardCount: 2, ttlMs: 3000 }, handlers, logger, mem.store);
    await leases.start();
    mem.table.set(1, { fence: 1 }); // h2 stopped: shard 1 comes here and resumes slowly
    await vi.advanceTimersByTimeAsync(1000);
    expect(leases.owned()).toEqual([0, 1]);
    renewals.length = 0;
    await vi.advanceTimersByTimeAsync(3000);
    expect(renewals.filter((s) => s === 0).length).toBeGreaterThanOrEqual(3);
    finishResume();
    await leases.stop();
  });
});
