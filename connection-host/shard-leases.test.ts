import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#shared/log/logger';
import type { HostView, Presence } from './heartbeat.ts';
import type { ShardHandlers } from './held-shards.ts';
import type { LeaseStore } from './lease-round.ts';
import { FULL_READ_EVERY } from './plan-reads.ts';
import { ShardLeases } from './shard-leases.ts';

/**
 * Leases in memory, with DynamoDB's conditions: a take succeeds only if the lease is as the taker
 * read it (compare-and-swap), a release only for its owner. Counts the writes.
 */
function memoryStore() {
  const table = new Map<number, { owner?: string; to?: string; fence: number }>();
  const released: number[] = [];
  let writes = 0;
  let leaseReads = 0;
  const store: LeaseStore = {
    async take(shard, owner, seen) {
      const now = table.get(shard);
      if (now?.fence !== seen.fence || now?.owner !== seen.owner) return undefined;
      writes++;
      const fence = (now?.fence ?? 0) + 1;
      table.set(shard, { owner, fence });
      return fence;
    },
    async release(shard, owner, to) {
      const held = table.get(shard);
      if (held?.owner !== owner) return;
      writes++;
      held.owner = undefined;
      held.to = to;
      released.push(shard);
    },
    async readLeases() {
      leaseReads++;
      return [...table].map(([shard, l]) => ({ shard, owner: l.owner, to: l.to, fence: l.fence }));
    },
  };
  return { store, table, released, writes: () => writes, leaseReads: () => leaseReads };
}

/**
 * Heartbeats in memory: a host is live while it beats; `dead` ones stop. A host's beat carries what
 * `status` says of it (its shards, sessions, whether it is mid-move), as it was when it beat. With
 * the plan's version, and a count of each read.
 */
function memoryPresence(full = new Set<string>()) {
  const live = new Set<string>();
  const beats = new Map<string, number>();
  const failing = new Set<string>();
  const status = new Map<string, () => Omit<HostView, 'hostId'>>();
  const beaten = new Map<string, Omit<HostView, 'hostId'>>();
  const reads = { live: 0, version: 0, expiries: 0 };
  /** A host in `live` is live until its last beat's TTL ran out (one that never beat: always). */
  const expiresAt = new Map<string, number>();
  const isLive = (h: string) => live.has(h) && (expiresAt.get(h) ?? Number.POSITIVE_INFINITY) >= Date.now();
  let version = 0;
  const of = (hostId: string): Presence => ({
    async beat() {
      if (failing.has(hostId)) throw new Error('table unreachable');
      live.add(hostId);
      expiresAt.set(hostId, Date.now() + TTL);
      beats.set(hostId, (beats.get(hostId) ?? 0) + 1);
      beaten.set(hostId, status.get(hostId)?.() ?? {});
    },
    async live() {
      reads.live++;
      return [...live].filter(isLive).map((h) => ({ hostId: h, full: full.has(h), ...beaten.get(h) }));
    },
    async leave() {
      live.delete(hostId);
    },
    async version() {
      reads.version++;
      return version;
    },
    async bump() {
      return ++version;
    },
    async expiries(ids) {
      reads.expiries++;
      return new Map(
        ids.map((id) => [id, live.has(id) ? (expiresAt.get(id) ?? Date.now() + TTL) : undefined]),
      );
    },
  });
  /** Another host's change, as its bump tells the others. */
  const bump = () => {
    version++;
  };
  return { of, live, beats, failing, full, status, reads, bump };
}

const TTL = 3000; // ticks every second

describe('ShardLeases', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function host(
    id: string,
    mem: ReturnType<typeof memoryStore>,
    presence: ReturnType<typeof memoryPresence>,
    over: Partial<ShardHandlers> & { shardCount?: number } = {},
  ) {
    const log: string[] = [];
    const handlers: ShardHandlers = {
      acquired: vi.fn(async (shard: number) => {
        log.push(`acquired ${shard} fence ${leases.guard(shard)?.fence}`);
      }),
      lost: vi.fn(async (shard: number, why: 'lost' | 'release') => {
        log.push(`${why} ${shard} fence ${leases.guard(shard)?.fence}`);
      }),
      ...over,
    };
    const leases = new ShardLeases(
      { hostId: id, shardCount: over.shardCount ?? 3, ttlMs: TTL },
      handlers,
      logger,
      mem.store,
      presence.of(id),
    );
    presence.status.set(id, () => ({
      shards: leases.owned(),
      busy: leases.busy(),
      sessions: leases.owned().reduce((n, s) => n + (handlers.load?.(s) ?? 0), 0),
    }));
    return { leases, log, handlers };
  }

  it('takes the free shards at start, under their fence, and leaves those of a live host', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    mem.table.set(1, { owner: 'h2', fence: 5 });
    presence.live.add('h2');
    const { leases, log } = host('h1', mem, presence, { shardCount: 2 });
    await leases.start();
    expect(leases.owned()).toEqual([0]);
    expect(log).toEqual(['acquired 0 fence 1']);
    expect(leases.guard(0)).toEqual({ shard: 0, owner: 'h1', fence: 1 });
    expect(leases.guard(1)).toBeUndefined();
    // A command of shard 1 goes back at once for h2; one of its own shard is not put back at all.
    expect(leases.heldElsewhere(1)).toBe(true);
    expect(leases.heldElsewhere(0)).toBe(false);
    await leases.stop();
  });

  it('writes no lease while the shards stay put: holding costs one heartbeat per tick', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    const { leases } = host('h1', mem, presence, { shardCount: 64 });
    await leases.start();
    expect(leases.owned()).toHaveLength(64);
    const writes = mem.writes();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mem.writes()).toBe(writes);
    expect(presence.beats.get('h1')).toBeGreaterThanOrEqual(10);
    await leases.stop();
  });

  it('takes a released shard, and a dead host’s (no heartbeat), under the next fence', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    mem.table.set(1, { owner: 'h2', fence: 5 });
    mem.table.set(2, { owner: 'h3', fence: 7 });
    presence.live.add('h2').add('h3');
    const { leases, log } = host('h1', mem, presence);
    await leases.start();
    expect(leases.owned()).toEqual([0]);
    expect(leases.heldElsewhere(2)).toBe(true);

    mem.table.set(1, { fence: 5 }); // h2 released it and left
    presence.live.delete('h2');
    presence.live.delete('h3'); // h3 died: its heartbeat ran out
    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toContain('acquired 1 fence 6');
    expect(log).toContain('acquired 2 fence 8');
    expect(leases.owned()).toEqual([0, 1, 2]);
    await leases.stop();
  });

  it('notices a lost shard (a later fence) on the next tick, stops its work while the fence is still known, then forgets it', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    const { leases, log } = host('h1', mem, presence);
    await leases.start();
    mem.table.set(0, { owner: 'h2', fence: 2 });
    presence.live.add('h2');

    await vi.advanceTimersByTimeAsync(1000);
    expect(log).toContain('lost 0 fence 1');
    expect(leases.owned()).toEqual([1, 2]);
    expect(leases.guard(0)).toBeUndefined();
    await leases.stop();
  });

  it('lets every shard go once it could not beat for nearly the TTL', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    const { leases, log } = host('h1', mem, presence);
    await leases.start();
    presence.failing.add('h1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(leases.owned()).toHaveLength(3); // one missed beat: still well inside the TTL
    await vi.advanceTimersByTimeAsync(2000);
    await leases.settled();
    expect(leases.owned()).toEqual([]);
    expect(log.filter((l) => l.startsWith('lost'))).toHaveLength(3);
    await leases.stop();
  });

  it('on stop ticks no more, and releaseAll leaves the host list and frees what it held', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    const { leases, log } = host('h1', mem, presence);
    await leases.start();
    await leases.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(log).toEqual(['acquired 0 fence 1', 'acquired 1 fence 1', 'acquired 2 fence 1']);

    await leases.releaseAll();
    expect(mem.released.sort()).toEqual([0, 1, 2]);
    expect(presence.live.has('h1')).toBe(false);
    expect(leases.owned()).toEqual([]);
  });

  it('hands over what it holds beyond its share of sessions once another host beats: links closed, then the lease released for the newcomer, which takes them', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    const order: string[] = [];
    const load = (shard: number) => (shard === 1 ? 0 : 3);
    const h1 = host('h1', mem, presence, {
      shardCount: 4,
      lost: vi.fn(async (shard: number) => {
        order.push(`lost ${shard} while held ${mem.table.get(shard)?.owner}`);
      }),
      load,
    });
    await h1.leases.start();
    expect(h1.leases.owned()).toEqual([0, 1, 2, 3]);

    const h2 = host('h2', mem, presence, { shardCount: 4, load });
    await h2.leases.start();
    await vi.advanceTimersByTimeAsync(1000);
    await h1.leases.settled();
    // 9 sessions, a mean of 4.5: one shard of 3 (the highest) and the empty one; a second 3 would
    // put the newcomer past its share.
    expect(order).toEqual(['lost 3 while held h1', 'lost 1 while held h1']);
    expect(h1.leases.owned()).toEqual([0, 2]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h2.leases.owned()).toEqual([1, 3]);

    // At their share now: nothing moves any more.
    await vi.advanceTimersByTimeAsync(3000);
    expect(h1.leases.owned()).toEqual([0, 2]);
    expect(h2.leases.owned()).toEqual([1, 3]);
    expect(h1.handlers.lost).toHaveBeenCalledTimes(2);

    for (const h of [h1, h2]) await h.leases.stop();
  });

  it('a host past its memory budget takes no more shards, and another host takes them', async () => {
    const mem = memoryStore();
    const presence = memoryPresence();
    let full = false;
    const h1 = host('h1', mem, presence, { shardCount: 8, full: () => full });
    // Shards 4-7 are another live host's: h1 takes its half, 0-3.
    for (let s = 4; s < 8; s++) mem.table.set(s, { owner: 'gone', fence: 1 });
    presence.live.add('gone');
    await h1.leases.start();
    expect(h1.leases.owned()).toEqual([0, 1, 2, 3]);

    // h1 fills up; then the other host dies: its shards are free, but h1 takes none of them.
    full = true;
    presence.full.add('h1');
    presence.live.delete('gone');
    await vi.advanceTimersByTimeAsync(3000);
    expect(h1.leases.owned()).toEqual([0, 1, 2, 3]);

    // A host with room joins and takes them all.
    const h2 = host('h2', mem, presence, { shardCount: 8 });
    await h2.leases.start();
    await vi.advanceTimersByTimeAsync(2000);
    expect(h2.leases.owned()).toEqual([4, 5, 6, 7]);
    expect(h1.leases.owned()).toEqual([0, 1, 2, 3]);
    for (const h of [h1, h2]) await h.leases.stop();
  });

  /** A host holding 2 shards whose shard 1 resumes until `finishResume` is called. */
  function resumingOne() {
    const mem = memoryStore();
    const presence = memoryPresence();
    let finishResume = () => {};
    const { leases } = host('h1', mem, presence, {
      shardCount: 2,
      acquired: vi.fn(async (shard: number) => {
        if (shard === 1) await new Promise<void>((r) => (finishResume = r));
      }),
    });
    return { presence, leases, finishResume: () => finishResume() };
  }

  it('beats on while a taken shard is still resuming', async () => {
    const { presence, leases, finishResume } = resumingOne();
    await leases.start();
    expect(leases.owned()).toEqual([0, 1]);
    const before = presence.beats.get('h1') ?? 0;
    await vi.advanceTimersByTimeAsync(3000);
    expect((presence.beats.get('h1') ?? 0) - before).toBeGreaterThanOrEqual(3);
    finishResume();
    await leases.stop();
  });

  it('beats as soon as the last resume finishes, not a tick later: its heartbeat says it is no longer busy', async () => {
    const { presence, leases, finishResume } = resumingOne();
    await leases.start();
    await vi.advanceTimersByTimeAsync(1500); // mid-way between two ticks (every 1 s)
    expect(leases.busy()).toBe(true);
    const before = presence.beats.get('h1') ?? 0;
    finishResume();
    await vi.advanceTimersByTimeAsync(10);
    expect(leases.busy()).toBe(false);
    expect((presence.beats.get('h1') ?? 0) - before).toBe(1);
    await leases.stop();
  });

  /** Two hosts sharing 8 shards, at rest (4 each); h2 starts `offsetMs` after h1. */
  async function twoAtRest(offsetMs = 0) {
    const mem = memoryStore();
    const presence = memoryPresence();
    const h1 = host('h1', mem, presence, { shardCount: 8 });
    const h2 = host('h2', mem, presence, { shardCount: 8 });
    await h1.leases.start();
    if (offsetMs) await vi.advanceTimersByTimeAsync(offsetMs);
    await h2.leases.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect([h1.leases.owned().length, h2.leases.owned().length]).toEqual([4, 4]);
    return { mem, presence, h1, h2 };
  }

  it('reads the leases and heartbeats only when something moved: at rest a tick reads the version and the next hosts’ heartbeats', async () => {
    const { mem, presence, h1, h2 } = await twoAtRest();
    const [leaseReads, liveReads, versionReads] = [
      mem.leaseReads(),
      presence.reads.live,
      presence.reads.version,
    ];
    await vi.advanceTimersByTimeAsync(10_000); // 10 ticks each, fewer than FULL_READ_EVERY
    expect(mem.leaseReads() - leaseReads).toBe(0);
    expect(presence.reads.live - liveReads).toBe(0);
    expect(presence.reads.version - versionReads).toBe(20);

    // Another host's change (its bump): both read on their next tick.
    presence.bump();
    await vi.advanceTimersByTimeAsync(1000);
    expect(mem.leaseReads() - leaseReads).toBe(2);

    // With nothing moving, each reads again within FULL_READ_EVERY to 1.5× that many ticks.
    const before = mem.leaseReads();
    await vi.advanceTimersByTimeAsync(FULL_READ_EVERY * 1500);
    expect(mem.leaseReads() - before).toBeGreaterThanOrEqual(2);
    expect(mem.leaseReads() - before).toBeLessThanOrEqual(4);
    for (const h of [h1, h2]) await h.leases.stop();
  });

  it('a host whose watched neighbour died reads at once, takes its shards and tells the others', async () => {
    const { presence, h1, h2 } = await twoAtRest();
    // h2 dies: it beats no more, and its heartbeat runs out.
    await h2.leases.stop();
    presence.live.delete('h2');
    const version = await presence.of('x').version();
    await vi.advanceTimersByTimeAsync(1000);
    expect(h1.leases.owned()).toHaveLength(8);
    expect(await presence.of('x').version()).toBeGreaterThan(version);
    await h1.leases.stop();
  });

  it('looks at a watched host that missed its beats the moment its heartbeat runs out, not a tick later', async () => {
    const { h1, h2 } = await twoAtRest(500); // h2 beats half a tick after h1
    // h2 hangs: no more beats; its last one runs out TTL later, in the middle of h1's ticks.
    await h2.leases.stop();
    await vi.advanceTimersByTimeAsync(TTL - 1000);
    expect(h1.leases.owned()).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1000 + 100);
    expect(h1.leases.owned()).toHaveLength(8);
    await h1.leases.stop();
  });
});
