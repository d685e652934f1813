import { describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { shardOf } from '#shared/sessions/shard';
import { HYSTERESIS } from './shard-moves.ts';
import { type LeaseView, planShards } from './shard-plan.ts';

const held = (owners: Record<number, string>): LeaseView[] =>
  Object.entries(owners).map(([shard, owner]) => ({ shard: Number(shard), owner }));

interface World {
  full?: string[];
  groupOf?: (s: number) => number;
  /** Sessions each shard runs (none when absent). */
  sessions?: (s: number) => number;
  /** Whether the hosts publish their sessions: without, they balance shard counts alone. */
  blind?: boolean;
}

/**
 * Hosts acting one after another on what they read, as their ticks do, until no plan changes
 * anything: answers each host's shards. A hand-over names its receiver as the lease would.
 */
function converge(hosts: string[], shardCount: number, start: Record<number, string> = {}, w: World = {}) {
  const owners = new Map<number, string>(Object.entries(start).map(([s, o]) => [Number(s), o]));
  const named = new Map<number, string>();
  const per = w.sessions ?? (() => 0);
  let changed = true;
  for (let round = 0; round < 100 && changed; round++) {
    changed = false;
    for (const me of hosts) {
      const leases = Array.from({ length: shardCount }, (_, shard) => ({
        shard,
        owner: owners.get(shard),
        to: named.get(shard),
      }));
      const sessions = new Map(hosts.map((h) => [h, 0]));
      for (const [s, o] of owners) sessions.set(o, (sessions.get(o) ?? 0) + per(s));
      const plan = planShards({
        me,
        hosts,
        leases,
        shardCount,
        full: w.full,
        groupOf: w.groupOf,
        ...(w.blind ? {} : { sessions, load: per }),
      });
      for (const s of plan.release) {
        owners.delete(s);
        const to = plan.to.get(s);
        if (to) named.set(s, to);
      }
      for (const s of plan.take)
        if (!owners.has(s)) {
          owners.set(s, me);
          named.delete(s);
        }
      changed ||= plan.release.length + plan.take.length > 0;
    }
  }
  expect(changed).toBe(false); // it settled: no shard goes back and forth
  const by = Object.fromEntries(hosts.map((h) => [h, [] as number[]]));
  for (const [s, o] of owners) by[o]?.push(s);
  for (const list of Object.values(by)) list.sort((a, b) => a - b);
  expect(owners.size).toBe(shardCount);
  return by;
}

const sizes = (by: Record<string, number[]>) => Object.values(by).map((s) => s.length);
/** The most sessions a host runs over the mean. */
const overMean = (by: Record<string, number[]>, per: (s: number) => number) => {
  const loads = Object.values(by).map((ss) => ss.reduce((n, s) => n + per(s), 0));
  return Math.max(...loads) / (loads.reduce((a, b) => a + b, 0) / loads.length);
};

/** 100 sessions hashed over 64 shards, as `bench/scale-out.ts 100` makes them: 0 to 3 a shard. */
const hashed = (() => {
  const counts = new Array<number>(64).fill(0);
  for (let i = 0; i < 100; i++) counts[shardOf(`ses_${i}`, 64)] = (counts[shardOf(`ses_${i}`, 64)] ?? 0) + 1;
  return (s: number) => counts[s] ?? 0;
})();

describe('planShards', () => {
  it('one host takes every shard', () => {
    const plan = planShards({ me: 'a', hosts: ['a'], leases: [], shardCount: 4 });
    expect(plan).toMatchObject({ target: 4, take: [0, 1, 2, 3], release: [] });
  });

  it('two hosts split 4 shards 2 and 2: the full host hands two over, named for the new one, which takes them', () => {
    const all = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    const a = planShards({ me: 'a', hosts: ['a', 'b'], leases: all, shardCount: 4 });
    expect(a.target).toBe(2);
    expect(a.release).toHaveLength(2);
    expect([...a.to.values()]).toEqual(['b', 'b']);
    expect(planShards({ me: 'b', hosts: ['a', 'b'], leases: all, shardCount: 4 }).take).toEqual([]);
    // A shard named for b is b's to take; a third host leaves it.
    const named: LeaseView[] = [...all.slice(0, 3), { shard: 3, to: 'b' }];
    expect(planShards({ me: 'b', hosts: ['a', 'b', 'c'], leases: named, shardCount: 4 }).take).toEqual([3]);
    expect(planShards({ me: 'c', hosts: ['a', 'b', 'c'], leases: named, shardCount: 4 }).take).toEqual([]);
    expect(sizes(converge(['a', 'b'], 4, { 0: 'a', 1: 'a', 2: 'a', 3: 'a' }))).toEqual([2, 2]);
  });

  it('a shard named for a host that died, or filled up, is free for the others', () => {
    const leases: LeaseView[] = [
      { shard: 0, owner: 'a' },
      { shard: 1, to: 'gone' },
    ];
    expect(planShards({ me: 'a', hosts: ['a'], leases, shardCount: 2 }).take).toEqual([1]);
    const toFull: LeaseView[] = [
      { shard: 0, owner: 'a' },
      { shard: 1, to: 'b' },
    ];
    const plan = planShards({ me: 'a', hosts: ['a', 'b'], full: ['b'], leases: toFull, shardCount: 2 });
    expect(plan.take).toEqual([1]);
  });

  it('hands over sessions, not shards: the heaviest shards that fit the receiver’s share, no more', () => {
    const load = (s: number) => [5, 0, 9, 1][s] ?? 0;
    const leases = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    const plan = planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 4, load });
    // 15 sessions, a mean of 7.5: the 9 does not fit b's share; 5 and 1 do. The empty one stays:
    // b holds the mean shard count (2) by then.
    expect(plan.release).toEqual([0, 3]);
    expect([...plan.to.values()]).toEqual(['b', 'b']);
  });

  it('hands a receiver shards of the command queues it consumes already, before those of the sender’s least held queue', () => {
    // Queue 1: the even shards and 9 (b holds 9); queue 0: the odd ones. a holds 0-8, one session
    // on each of 0-7: on its own it would hand over queue 0 first (it holds 4 of it, 5 of queue 1).
    const groupOf = (s: number) => (s % 2 === 0 || s === 9 ? 1 : 0);
    const leases = held({ ...Object.fromEntries(Array.from({ length: 9 }, (_, s) => [s, 'a'])), 9: 'b' });
    const load = (s: number) => (s < 8 ? 1 : 0);
    const plan = planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 10, load, groupOf });
    expect(plan.release.sort()).toEqual([0, 2, 4, 6]);
  });

  it('hands over no shard a session of which is being linked (pinned)', () => {
    const load = (s: number) => [5, 0, 9, 1][s] ?? 0;
    const leases = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    const plan = planShards({
      me: 'a',
      hosts: ['a', 'b'],
      leases,
      shardCount: 4,
      load,
      pinned: (s) => s === 0,
    });
    expect(plan.release).toEqual([3, 1]);
  });

  it('where even shard counts leave a host above 1.25× the mean sessions, the plan brings every host within it', () => {
    // Shards 0-15 run 3 sessions each, the others 1: four hosts with 16 shards each run 48/16/16/16.
    const skewed = (s: number) => (s < 16 ? 3 : 1);
    const blind = converge(['a', 'b', 'c', 'd'], 64, {}, { sessions: skewed, blind: true });
    expect(sizes(blind)).toEqual([16, 16, 16, 16]);
    expect(overMean(blind, skewed)).toBeGreaterThan(1.25);
    const even = converge(['a', 'b', 'c', 'd'], 64, {}, { sessions: skewed });
    expect(overMean(even, skewed)).toBeLessThanOrEqual(1.25);
    // And from the shard-count spread, by hand-overs, as it happens when hosts start before the sessions.
    const start = Object.fromEntries(Object.entries(blind).flatMap(([h, ss]) => ss.map((s) => [s, h])));
    const moved = converge(['a', 'b', 'c', 'd'], 64, start, { sessions: skewed });
    expect(overMean(moved, skewed)).toBeLessThanOrEqual(1 + HYSTERESIS);
  });

  it('100 hashed sessions on 64 shards over 2 to 5 hosts: within 1.25× the mean after joins', () => {
    for (const n of [2, 3, 4, 5]) {
      const hosts = ['a', 'b', 'c', 'd', 'e'].slice(0, n);
      // Every shard with the first host, the others join: all by hand-over.
      const all = Object.fromEntries(Array.from({ length: 64 }, (_, s) => [s, 'a']));
      const by = converge(hosts, 64, all, { sessions: hashed, groupOf: (s) => s % 4 });
      expect(overMean(by, hashed)).toBeLessThanOrEqual(1.25);
      // Shards without sessions even out beside them: no host far from the mean shard count.
      for (const c of sizes(by)) expect(c).toBeLessThanOrEqual(Math.ceil((64 / n) * 1.5));
    }
  });

  it('a spread within the hysteresis stays put, and one more session moves nothing', () => {
    const by = converge(['a', 'b', 'c', 'd'], 64, {}, { sessions: hashed });
    const start = Object.fromEntries(Object.entries(by).flatMap(([h, ss]) => ss.map((s) => [s, h])));
    const plus = (s: number) => hashed(s) + (s === by.a?.[0] ? 1 : 0);
    const again = converge(['a', 'b', 'c', 'd'], 64, start, { sessions: plus });
    expect(again).toEqual(by);
  });

  it('waits with hand-overs while a host is mid-move (heartbeats not settled)', () => {
    const leases = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a' });
    expect(planShards({ me: 'a', hosts: ['a', 'b'], leases, shardCount: 4, settled: false }).release).toEqual(
      [],
    );
  });

  it('three hosts share 4 shards 2, 1, 1, and a spread that is balanced stays put', () => {
    const by = converge(['a', 'b', 'c'], 4, { 0: 'c', 1: 'c', 2: 'c', 3: 'c' });
    expect(sizes(by).sort()).toEqual([1, 1, 2]);
    expect(by.c).toHaveLength(2); // the host that held them keeps the extra one: fewer moves
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

  it('a dead host’s shards (no live heartbeat) are free, and go to the hosts with fewest sessions first', () => {
    const leases: LeaseView[] = [
      { shard: 0, owner: 'dead' },
      { shard: 1, owner: 'dead' },
      { shard: 2, owner: 'a' },
      { shard: 3 }, // released
    ];
    const plan = planShards({ me: 'a', hosts: ['a'], leases, shardCount: 4 });
    expect(plan.take.sort()).toEqual([0, 1, 3]);
    // b runs 30 sessions on 2 shards, a 10 on 2: a free shard counts as the mean (10), so a takes
    // the first two of the four free, then they alternate.
    const four: LeaseView[] = [
      ...held({ 0: 'a', 1: 'a', 2: 'b', 3: 'b' }),
      ...[4, 5, 6, 7].map((shard) => ({ shard, owner: 'dead' })),
    ];
    const sessions = new Map([['b', 30]]);
    const load = () => 5;
    const a = planShards({ me: 'a', hosts: ['a', 'b'], leases: four, shardCount: 8, sessions, load });
    const b = planShards({
      me: 'b',
      hosts: ['a', 'b'],
      leases: four,
      shardCount: 8,
      sessions: new Map([['a', 10]]),
      load: () => 15,
    });
    expect(a.take).toHaveLength(3);
    expect(b.take).toHaveLength(1);
  });

  it('after a host died, a host reading after the others took their part of its shards takes the rest of its share in one round', () => {
    // a, b and c run 10 sessions on 4 shards each; d died holding 6 (shards 12–17).
    const base = held({ 0: 'a', 1: 'a', 2: 'a', 3: 'a', 4: 'b', 5: 'b', 6: 'b', 7: 'b' });
    const cShards = held({ 8: 'c', 9: 'c', 10: 'c', 11: 'c' });
    const dead = [12, 13, 14, 15, 16, 17].map((shard) => ({ shard, owner: 'd' }));
    const hosts = ['a', 'b', 'c'];
    const sessions = new Map(hosts.map((h) => [h, 10]));
    const beats = new Map([
      ['a', [0, 1, 2, 3]],
      ['b', [4, 5, 6, 7]],
      ['c', [8, 9, 10, 11]],
    ]);
    const plan = (me: string, leases: LeaseView[]) =>
      planShards({ me, hosts, leases, shardCount: 18, sessions, beats, load: () => 2.5 });
    // Reading at once, each takes two.
    const first = [...base, ...cShards, ...dead];
    expect(hosts.map((h) => plan(h, first).take.length)).toEqual([2, 2, 2]);
    // a and b (watching d) took theirs; their heartbeats do not list them yet. c, reading a tick
    // later, takes both that are left, not one now and one later.
    const aTook = plan('a', first).take;
    const bTook = plan('b', first).take;
    const later = [
      ...base,
      ...cShards,
      ...dead.map((l) =>
        aTook.includes(l.shard)
          ? { shard: l.shard, owner: 'a' }
          : bTook.includes(l.shard)
            ? { shard: l.shard, owner: 'b' }
            : l,
      ),
    ];
    expect(plan('c', later).take.sort()).toEqual(
      dead.map((l) => l.shard).filter((s) => !aTook.includes(s) && !bTook.includes(s)),
    );
    // Without the heartbeats' shard lists, a and b look as light as before taking theirs: c took one.
    expect(
      planShards({ me: 'c', hosts, leases: later, shardCount: 18, sessions, load: () => 2.5 }).take,
    ).toHaveLength(1);
  });

  it('1,024 shards over 1, 2, 3 and 5 hosts: with no sessions each within the hysteresis of S/N, every shard held', () => {
    for (const n of [1, 2, 3, 5]) {
      const hosts = ['a', 'b', 'c', 'd', 'e'].slice(0, n);
      const counts = sizes(converge(hosts, 1024, {}, { groupOf: (s) => s % 4 }));
      for (const c of counts) expect(c).toBeLessThanOrEqual(Math.ceil((1024 / n) * (1 + HYSTERESIS)));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1024);
    }
  });

  it('gathers each host’s shards on few command queues: two hosts over 4 queues hold two whole queues each', () => {
    const groupOf = (s: number) => s % 4;
    const all = Object.fromEntries(Array.from({ length: 1024 }, (_, s) => [s, 'a']));
    const by = converge(['a', 'b'], 1024, all, { groupOf });
    const queues = (shards: number[]) => [...new Set(shards.map(groupOf))].sort();
    expect(sizes(by)).toEqual([512, 512]);
    expect(queues(must(by.a, 'host a'))).toHaveLength(2);
    expect(queues(must(by.b, 'host b'))).toHaveLength(2);
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
    expect(must(by.b, 'host b').length + must(by.c, 'host c').length).toBe(924);
    // Every host full: nobody takes the free shards (the metric and alarm say so).
    const none = planShards({ me: 'b', hosts: ['a', 'b'], leases, shardCount: 1024, full: ['a', 'b'] });
    expect(none.take).toEqual([]);
  });
});
