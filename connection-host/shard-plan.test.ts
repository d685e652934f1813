import { describe, expect, it } from 'vitest';
import { type LeaseView, planShards, slackOf } from './shard-plan.ts';

const held = (owners: Record<number, string>): LeaseView[] =>
  Object.entries(owners).map(([shard, owner]) => ({ shard: Number(shard), owner }));

/**
 * Hosts acting one after another on what they read, as their ticks do, until no plan changes
 * anything: answers each host's shards.
 */
function converge(
  hosts: string[],
  shardCount: number,
  start: Record<number, string> = {},
  extra: { full?: string[]; groupOf?: (s: number) => number } = {},
) {
  const owners = new Map<number, string>(Object.entries(start).map(([s, o]) => [Number(s), o]));
  for (let round = 0; round < 50; round++) {
    let changed = false;
    for (const me of hosts) {
      const leases = [...owners].map(([shard, owner]) => ({ shard, owner }));
      const plan = planShards({ me, hosts, leases, shardCount, ...extra });
      for (const s of plan.release) owners.delete(s);
      for (const s of plan.take) if (!owners.has(s)) owners.set(s, me);
      changed ||= plan.release.length + plan.take.length > 0;
    }
    if (!changed) break;
  }
  const by = Object.fromEntries(hosts.map((h) => [h, [] as number[]]));
  for (const [s, o] of owners) by[o]?.push(s);
  for (const list of Object.values(by)) list.sort((a, b) => a - b);
  expect(owners.size).toBe(shardCount);
  return by;
}

const sizes = (by: Record<string, number[]>) => Object.values(by).map((s) => s.length);

describe('planShards', () => {
  it('one host takes every shard', () => {
    const plan = planShards({ me: 'a', hosts: ['a'], leases: [], shardCount: 4 });
    expect(plan).toEqual({ target: 4, take: [0, 1, 2, 3], release: [] });
  });

  it('two hosts split 4 shards 2 and 2: the full host hands over two, the new one takes them', () => {
    const full = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    const a = planShards({ me: 'a', hosts: ['a', 'b'], leases: full, shardCount: 4 });
    expect(a.target).toBe(2);
    expect(a.release).toHaveLength(2);
    expect(planShards({ me: 'b', hosts: ['a', 'b'], leases: full, shardCount: 4 }).take).toEqual([]);
    expect(sizes(converge(['a', 'b'], 4, { 0: 'a', 1: 'a', 2: 'a', 3: 'a' }))).toEqual([2, 2]);
  });

  it('hands over the lightest shards first, so few links close', () => {
    const load = (s: number) => [5, 0, 9, 1][s]!;
    const plan = planShards({
      me: 'a',
      hosts: ['a', 'b'],
      leases: held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' }),
      shardCount: 4,
      load,
    });
    expect(plan.release).toEqual([1, 3]);
  });

  it('three hosts share 4 shards 2, 1, 1, and a spread that is balanced stays put', () => {
    const by = converge(['a', 'b', 'c'], 4, { 0: 'c', 1: 'c', 2: 'c', 3: 'c' });
    expect(sizes(by).sort()).toEqual([1, 1, 2]);
    expect(by.c).toHaveLength(2); // the host that held the most keeps the extra one: fewer moves
    const leases = held(Object.fromEntries(Object.entries(by).flatMap(([h, ss]) => ss.map((s) => [s, h]))));
    for (const me of ['a', 'b', 'c'])
      expect(planShards({ me, hosts: ['a', 'b', 'c'], leases, shardCount: 4 })).toMatchObject({
        take: [],
        release: [],
      });
  });

  it('five hosts share 64 shards 13/13/13/13/12; with 4 shards one host idles', () => {
    const hosts = ['a', 'b', 'c', 'd', 'e'];
    expect(sizes(converge(hosts, 64)).sort()).toEqual([12, 13, 13, 13, 13]);
    expect(sizes(converge(hosts, 4)).sort()).toEqual([0, 1, 1, 1, 1]);
  });

  it('a joining host gets its share from hosts that held it all', () => {
    const start = Object.fromEntries(Array.from({ length: 12 }, (_, s) => [s, s % 2 ? 'a' : 'b']));
    const by = converge(['a', 'b', 'c'], 12, start);
    expect(sizes(by)).toEqual([4, 4, 4]);
  });

  it('a dead host’s shards (no live heartbeat) are free and shared at once', () => {
    const leases: LeaseView[] = [
      { shard: 0, owner: 'dead' },
      { shard: 1, owner: 'dead' },
      { shard: 2, owner: 'a' },
      { shard: 3 }, // released
    ];
    const plan = planShards({ me: 'a', hosts: ['a'], leases, shardCount: 4 });
    expect(plan.take.sort()).toEqual([0, 1, 3]);
  });

  it('allows a slack of a tenth of the target before handing over, none below 10', () => {
    expect([1, 9, 10, 25].map(slackOf)).toEqual([0, 0, 1, 2]);
    const leases = held(Object.fromEntries(Array.from({ length: 35 }, (_, s) => [s, 'a'])));
    // 64 over 2 hosts: a target of 32, slack 3: holding 35 is within it, 36 is not.
    expect(planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 64 }).release).toEqual([]);
    leases.push({ shard: 35, owner: 'a' });
    expect(planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 64 }).release).toHaveLength(4);
  });

  it('1,024 shards over 1, 2, 3 and 5 hosts: each within ⌈S/N⌉ plus the slack, every shard held', () => {
    for (const n of [1, 2, 3, 5]) {
      const hosts = ['a', 'b', 'c', 'd', 'e'].slice(0, n);
      const counts = sizes(converge(hosts, 1024, {}, { groupOf: (s) => s % 4 }));
      const fair = Math.ceil(1024 / n);
      for (const c of counts) expect(c).toBeLessThanOrEqual(fair + slackOf(fair));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1024);
    }
  });

  it('gathers each host’s shards on few command queues: two hosts over 4 queues hold two whole queues each', () => {
    const groupOf = (s: number) => s % 4;
    const all = Object.fromEntries(Array.from({ length: 1024 }, (_, s) => [s, 'a']));
    const by = converge(['a', 'b'], 1024, all, { groupOf });
    const queues = (shards: number[]) => [...new Set(shards.map(groupOf))].sort();
    expect(sizes(by)).toEqual([512, 512]);
    expect(queues(by.a!)).toHaveLength(2);
    expect(queues(by.b!)).toHaveLength(2);
  });

  it('a host past its memory budget takes nothing more; the others share what it leaves', () => {
    // "a" is full holding 100: it keeps them, takes none of the free ones; b and c take the rest.
    const start = Object.fromEntries(Array.from({ length: 100 }, (_, s) => [s, 'a']));
    const leases = held(start);
    expect(
      planShards({ me: 'a', hosts: ['a', 'b', 'c'], leases, shardCount: 1024, full: ['a'] }),
    ).toMatchObject({
      take: [],
      release: [],
    });
    const by = converge(['a', 'b', 'c'], 1024, start, { full: ['a'] });
    expect(by.a).toHaveLength(100);
    expect(by.b!.length + by.c!.length).toBe(924);
    // Every host full: nobody takes the free shards (the metric and alarm say so).
    const none = planShards({ me: 'b', hosts: ['a', 'b'], leases, shardCount: 1024, full: ['a', 'b'] });
    expect(none.take).toEqual([]);
  });
});
