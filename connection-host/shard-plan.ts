/** One shard's lease as every host reads it. A released lease has no owner. */
export interface LeaseView {
  shard: number;
  owner?: string;
}

export interface ShardPlan {
  /** How many shards this host should hold. */
  target: number;
  /** Free shards to try to take (another host may win the race; the next tick tries again). */
  take: number[];
  /** Held shards to hand over: their links close cleanly, then the lease is released. */
  release: number[];
}

/**
 * A host may hold this many shards above its target before it hands any over: with many shards per
 * host, a host that sees another join a moment late moves no shard back and forth. Below 10 shards per
 * host it is 0, so a few shards still spread evenly.
 */
export const slackOf = (target: number) => Math.floor(target / 10);

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which shards this host should take or hand over, from what every host can read: the live hosts
 * (their heartbeats) and the leases. A lease whose owner has no live heartbeat is free: its host
 * died (or stopped) and the shard moves.
 *
 * Each host computes the same targets. A host past its memory budget (`full`) is held to what it
 * has, at most a fair share, and takes nothing more; the others share the rest: ⌊R/n⌋ each, and
 * one more for the R mod n hosts that hold the most already (ties by id), so a balanced spread stays
 * put and a joining host (holding none) is the one that receives. The targets add up to the shard
 * count unless every host is full, so every shard finds a holder while any host has room.
 *
 * With `groupOf` (a shard's command queue), a host takes shards of the groups it already holds
 * first and hands over those of the groups it holds least, so each command queue is consumed by few
 * hosts (connection-host/command-queues.ts).
 */
export function planShards(input: {
  me: string;
  hosts: readonly string[];
  leases: readonly LeaseView[];
  shardCount: number;
  /** Live hosts past their memory budget (connection-host/memory-budget.ts). */
  full?: readonly string[];
  /** Sessions a held shard runs: among equals, the lightest shards move first (fewer links close). */
  load?: (shard: number) => number;
  groupOf?: (shard: number) => number;
}): ShardPlan {
  const { me, shardCount } = input;
  const live = [...new Set([...input.hosts, me])];
  const liveSet = new Set(live);
  const ownerOf = new Map<number, string>();
  for (const l of input.leases) if (l.owner && liveSet.has(l.owner)) ownerOf.set(l.shard, l.owner);

  const counts = new Map(live.map((h) => [h, 0]));
  for (const owner of ownerOf.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  const fair = Math.ceil(shardCount / live.length);
  const full = new Set((input.full ?? []).filter((h) => liveSet.has(h)));
  const targets = new Map<string, number>();
  let rest = shardCount;
  for (const h of full) {
    const t = Math.min(counts.get(h) ?? 0, fair);
    targets.set(h, t);
    rest -= t;
  }
  const open = live.filter((h) => !full.has(h));
  const ranked = [...open].sort((a, b) => counts.get(b)! - counts.get(a)! || byId(a, b));
  const base = open.length ? Math.floor(rest / open.length) : 0;
  const extra = open.length ? rest % open.length : 0;
  ranked.forEach((h, rank) => {
    targets.set(h, base + (rank < extra ? 1 : 0));
  });
  const target = targets.get(me) ?? 0;
  const rank = Math.max(0, ranked.indexOf(me));

  const mine: number[] = [];
  const free: number[] = [];
  for (let shard = 0; shard < shardCount; shard++) {
    const owner = ownerOf.get(shard);
    if (owner === me) mine.push(shard);
    else if (owner === undefined) free.push(shard);
  }
  const groupOf = input.groupOf ?? (() => 0);
  const heldPerGroup = new Map<number, number>();
  for (const s of mine) heldPerGroup.set(groupOf(s), (heldPerGroup.get(groupOf(s)) ?? 0) + 1);
  const held = (s: number) => heldPerGroup.get(groupOf(s)) ?? 0;

  if (mine.length > target + slackOf(target)) {
    // Asked once per shard: the comparator below would ask each many times.
    const loads = new Map(mine.map((s) => [s, input.load?.(s) ?? 0]));
    const load = (s: number) => loads.get(s) ?? 0;
    const groupLoad = new Map<number, number>();
    for (const s of mine) groupLoad.set(groupOf(s), (groupLoad.get(groupOf(s)) ?? 0) + load(s));
    const gl = (s: number) => groupLoad.get(groupOf(s)) ?? 0;
    // Whole groups go first (the least held, then the lightest, then the highest), within one the
    // lightest shards: few queues shared, few links closed.
    const order = [...mine].sort(
      (a, b) => held(a) - held(b) || gl(a) - gl(b) || groupOf(b) - groupOf(a) || load(a) - load(b) || b - a,
    );
    return { target, take: [], release: order.slice(0, mine.length - target) };
  }
  if (full.has(me)) return { target, take: [], release: [] };
  // Hosts short of their target start at different free shards (and groups), so they seldom race
  // for one; a group this host consumes already comes first.
  const start = free.length ? (rank * Math.max(1, base)) % free.length : 0;
  const rotated = [...free.slice(start), ...free.slice(0, start)];
  const groups = Math.max(1, ...free.map((s) => groupOf(s) + 1));
  const turn = (s: number) => (groupOf(s) - (rank % groups) + groups) % groups;
  const preferred = input.groupOf ? rotated.sort((a, b) => held(b) - held(a) || turn(a) - turn(b)) : rotated;
  return { target, take: preferred.slice(0, Math.max(0, target - mine.length)), release: [] };
}
