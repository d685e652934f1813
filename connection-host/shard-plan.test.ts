import { describe, expect, it } from 'vitest';
import { type LeaseView, planShards, slackOf } from './shard-plan.ts';

const NOW = 1_000_000;
const held = (owners: Record<number, string>): LeaseView[] =>
  Object.entries(owners).map(([shard, owner]) => ({ shard: Number(shard), owner, expiresAtMs: NOW + 5000 }));

/**
 * Hosts acting one after another on what they read, as their ticks do, until no plan changes
 * anything: answers each host's shards.
 */
function converge(hosts: string[], shardCount: number, start: Record<number, string> = {}) {
  const owners = new Map<number, string>(Object.entries(start).map(([s, o]) => [Number(s), o]));
  for (let round = 0; round < 50; round++) {
    let changed = false;
    for (const me of hosts) {
      const leases = [...owners].map(([shard, owner]) => ({ shard, owner, expiresAtMs: NOW + 5000 }));
      const plan = planShards({ me, hosts, leases, shardCount, now: NOW });
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
    const plan = planShards({ me: 'a', hosts: ['a'], leases: [], shardCount: 4, now: NOW });
    expect(plan).toEqual({ target: 4, take: [0, 1, 2, 3], release: [] });
  });

  it('two hosts split 4 shards 2 and 2: the full host hands over two, the new one takes them', () => {
    const full = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    const a = planShards({ me: 'a', hosts: ['a', 'b'], leases: full, shardCount: 4, now: NOW });
    expect(a.target).toBe(2);
    expect(a.release).toHaveLength(2);
    expect(planShards({ me: 'b', hosts: ['a', 'b'], leases: full, shardCount: 4, now: NOW }).take).toEqual(
      [],
    );
    expect(sizes(converge(['a', 'b'], 4, { 0: 'a', 1: 'a', 2: 'a', 3: 'a' }))).toEqual([2, 2]);
  });

  it('hands over the lightest shards first, so few links close', () => {
    const load = (s: number) => [5, 0, 9, 1][s]!;
    const plan = planShards({
      me: 'a',
      hosts: ['a', 'b'],
      leases: held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' }),
      shardCount: 4,
      now: NOW,
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
      expect(planShards({ me, hosts: ['a', 'b', 'c'], leases, shardCount: 4, now: NOW })).toMatchObject({
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

  it('a dead host’s shards (no heartbeat) count as taken until their lease expires, then are shared', () => {
    const leases: LeaseView[] = [
      { shard: 0, owner: 'dead', expiresAtMs: NOW + 3000 },
      { shard: 1, owner: 'dead', expiresAtMs: NOW - 1 },
      { shard: 2, owner: 'a', expiresAtMs: NOW + 3000 },
    ];
    const plan = planShards({ me: 'a', hosts: ['a'], leases, shardCount: 4, now: NOW });
    expect(plan.take.sort()).toEqual([1, 3]);
  });

  it('allows a slack of a tenth of the target before handing over, none below 10', () => {
    expect([1, 9, 10, 25].map(slackOf)).toEqual([0, 0, 1, 2]);
    const leases = held(Object.fromEntries(Array.from({ length: 35 }, (_, s) => [s, 'a'])));
    // 64 over 2 hosts: a target of 32, slack 3: holding 35 is within it, 36 is not.
    expect(planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 64, now: NOW }).release).toEqual([]);
    leases.push({ shard: 35, owner: 'a', expiresAtMs: NOW + 5000 });
    expect(planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 64, now: NOW }).release).toHaveLength(
      4,
    );
  });
});
