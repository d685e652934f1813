import { planMoves, SHARD_WEIGHT } from './shard-moves.ts';

/**
 * One shard's lease as every host reads it. A released lease has no owner; one handed over to a
 * named host (`to`) is that host's to take while it lives and has room.
 */
export interface LeaseView {
  shard: number;
  owner?: string;
  to?: string;
}

export interface ShardPlan {
  /** How many shards this host holds once the plan is carried out. */
  target: number;
  /** Free shards to try to take (another host may win the race; the next tick tries again). */
  take: number[];
  /** Held shards to hand over: their links close cleanly, then the lease is released. */
  release: number[];
  /** The host each released shard is meant for (hand-overs that even out sessions). */
  to: Map<number, string>;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which shards this host should take or hand over, from what every host can read: the live hosts
 * (their heartbeats, with the sessions each runs) and the leases. A lease whose owner has no live
 * heartbeat is free: its host died (or stopped) and the shard moves.
 *
 * The hosts share sessions, not shards: a host weighs its sessions plus a little per shard
 * (shard-moves.ts), a free shard is guessed at the mean sessions per held shard. Free shards go,
 * one by one, to the lightest host with room (ties by id); every host computes the same counts and
 * takes its own, so a joining or surviving host fills up to the others. Once no shard is free and
 * the heartbeats agree with the leases (`settled`: no host mid-move), a host well above the mean
 * hands shards to named hosts below it (shard-moves.ts); those take them on their next tick.
 *
 * A host past its memory budget (`full`) takes and receives nothing; it keeps what it has unless
 * it is well above the mean. With `groupOf` (a shard's command queue), a host takes shards of the
 * groups it already holds first and hands over those of the groups it holds least, so each command
 * queue is consumed by few hosts (connection-host/command-queues.ts).
 */
export function planShards(input: {
  me: string;
  hosts: readonly string[];
  leases: readonly LeaseView[];
  shardCount: number;
  /** Live hosts past their memory budget (connection-host/memory-budget.ts). */
  full?: readonly string[];
  /** Sessions each live host runs, as its heartbeat says (missing: none); this host's own is `load`. */
  sessions?: ReadonlyMap<string, number>;
  /** Sessions a held shard of this host runs. */
  load?: (shard: number) => number;
  /**
   * The shards each live host's heartbeat lists (this one's among them). With them, free shards
   * are shared as every host sees the others alike: a host counts the sessions its heartbeat says
   * plus, for each shard the leases give it that its heartbeat does not list yet (just taken, its
   * sessions still resuming), the mean sessions per listed shard.
   */
  beats?: ReadonlyMap<string, readonly number[]>;
  /** Held shards not to hand over now (a session of theirs is being linked). */
  pinned?: (shard: number) => boolean;
  /** Whether every host's heartbeat agrees with the leases and none is mid-move (default yes). */
  settled?: boolean;
  groupOf?: (shard: number) => number;
}): ShardPlan {
  const { me, shardCount } = input;
  const live = [...new Set([...input.hosts, me])].sort(byId);
  const liveSet = new Set(live);
  const full = new Set((input.full ?? []).filter((h) => liveSet.has(h)));
  const ownerOf = new Map<number, string>();
  const toOf = new Map<number, string>();
  for (const l of input.leases) {
    if (l.owner && liveSet.has(l.owner)) ownerOf.set(l.shard, l.owner);
    else if (l.to && liveSet.has(l.to) && !full.has(l.to)) toOf.set(l.shard, l.to);
  }

  const mine = new Map<number, number>();
  const free: number[] = [];
  const handedToMe: number[] = [];
  const counts = new Map(live.map((h) => [h, 0]));
  for (let shard = 0; shard < shardCount; shard++) {
    const owner = ownerOf.get(shard);
    if (owner === me) mine.set(shard, (input.load?.(shard) ?? 0) + SHARD_WEIGHT);
    else if (owner === undefined) {
      const to = toOf.get(shard);
      if (to === me) handedToMe.push(shard);
      else if (to === undefined) free.push(shard);
    }
    if (owner !== undefined) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  const weights = new Map<string, number>();
  for (const h of live) {
    const sessions = h === me ? 0 : (input.sessions?.get(h) ?? 0);
    weights.set(h, sessions + (counts.get(h) ?? 0) * SHARD_WEIGHT);
  }
  weights.set(
    me,
    [...mine.values()].reduce((sum, w) => sum + w, 0),
  );
  const done = (plan: Omit<ShardPlan, 'target'>): ShardPlan => ({
    ...plan,
    target: mine.size + plan.take.length - plan.release.length,
  });
  const nothing = { take: [], release: [], to: new Map<number, string>() };
  if (!full.has(me) && (free.length || handedToMe.length)) {
    const seen = input.beats ? asBeaten(input.beats, live, ownerOf, counts, input.sessions) : undefined;
    return done({
      ...nothing,
      take: [
        ...handedToMe,
        ...pickFree(input, live, full, seen?.weights ?? weights, free, mine, seen?.guess),
      ],
    });
  }
  // Hand-overs wait until no shard is free and every host is done moving: a host's heartbeat
  // does not yet count the sessions it is resuming.
  if (free.length || toOf.size || input.settled === false) return done(nothing);
  const groupsHeld = new Map<string, Set<number>>();
  if (input.groupOf)
    for (const [shard, owner] of ownerOf)
      groupsHeld.set(owner, (groupsHeld.get(owner) ?? new Set()).add(input.groupOf(shard)));
  const to = planMoves({
    me,
    weights,
    full,
    counts,
    mine,
    pinned: input.pinned,
    groupOf: input.groupOf ?? (() => 0),
    groupsOf: (host) => groupsHeld.get(host) ?? new Set(),
  });
  return done({ take: [], release: [...to.keys()], to });
}

/**
 * Whether every other live host is done moving and its heartbeat names the shards the leases give
 * it: only then are the sessions each says it runs the ones it will run (`settled` above).
 */
export function heartbeatsAgree(
  me: string,
  hosts: readonly { hostId: string; shards?: readonly number[]; busy?: boolean }[],
  leases: readonly LeaseView[],
): boolean {
  const byOwner = new Map<string, number[]>();
  for (const l of leases) {
    if (!l.owner) continue;
    const list = byOwner.get(l.owner) ?? [];
    list.push(l.shard);
    byOwner.set(l.owner, list);
  }
  return hosts.every((h) => {
    if (h.hostId === me || !h.shards) return true;
    const beat = new Set(h.shards);
    const leased = byOwner.get(h.hostId) ?? [];
    return !h.busy && leased.length === beat.size && leased.every((s) => beat.has(s));
  });
}

/**
 * Each live host's weight as every host reads it alike (`beats` above): what its heartbeat says,
 * plus the shards the leases give it that its heartbeat does not list yet, each at the mean weight
 * of a listed shard (also the guess for a free shard). Hosts that took a dead host's shards a
 * moment ago then count them before their next beat, so a host reading after them takes the rest
 * of its share in one round, not one shard a round with hand-overs after.
 */
function asBeaten(
  beats: ReadonlyMap<string, readonly number[]>,
  live: readonly string[],
  ownerOf: ReadonlyMap<number, string>,
  /** Shards the leases give each live host. */
  counts: ReadonlyMap<string, number>,
  sessions: ReadonlyMap<string, number> | undefined,
): { weights: Map<string, number>; guess: number } {
  let listed = 0;
  let total = 0;
  for (const h of live) {
    listed += beats.get(h)?.length ?? 0;
    total += sessions?.get(h) ?? 0;
  }
  const guess = SHARD_WEIGHT + (listed > 0 ? total / listed : 0);
  const unlisted = new Map(live.map((h) => [h, 0]));
  const lists = new Map(live.map((h) => [h, new Set(beats.get(h) ?? [])]));
  for (const [shard, owner] of ownerOf)
    if (!lists.get(owner)?.has(shard)) unlisted.set(owner, (unlisted.get(owner) ?? 0) + 1);
  const weights = new Map<string, number>();
  for (const h of live) {
    const fresh = unlisted.get(h) ?? 0;
    weights.set(h, (sessions?.get(h) ?? 0) + ((counts.get(h) ?? 0) - fresh) * SHARD_WEIGHT + fresh * guess);
  }
  return { weights, guess };
}

/**
 * This host's part of the free shards: each goes to the lightest host with room (ties by id), a
 * free shard guessed at the mean weight of a held one (or `guess`); then which ones, by the
 * preference below. At most shards × hosts steps, only while shards are free.
 */
function pickFree(
  input: Parameters<typeof planShards>[0],
  live: readonly string[],
  full: ReadonlySet<string>,
  weights: ReadonlyMap<string, number>,
  free: readonly number[],
  mine: ReadonlyMap<number, number>,
  guessed?: number,
): number[] {
  const open = live.filter((h) => !full.has(h));
  const heldShards = input.shardCount - free.length;
  const totalWeight = [...weights.values()].reduce((sum, w) => sum + w, 0);
  const guess = guessed ?? (heldShards > 0 ? Math.max(SHARD_WEIGHT, totalWeight / heldShards) : SHARD_WEIGHT);
  const projected = new Map(open.map((h) => [h, weights.get(h) ?? 0]));
  const weightOf = (h: string) => projected.get(h) ?? 0;
  let count = 0;
  for (let i = 0; i < free.length; i++) {
    const lightest = open.reduce<string | undefined>(
      (best, h) => (best === undefined || weightOf(h) < weightOf(best) ? h : best),
      undefined,
    );
    if (lightest === undefined) break;
    projected.set(lightest, weightOf(lightest) + guess);
    if (lightest === input.me) count++;
  }
  if (!count) return [];

  // Hosts start at different free shards (and groups), so they seldom race for one; a group this
  // host consumes already comes first.
  const rank = Math.max(0, open.indexOf(input.me));
  const per = Math.max(1, Math.floor(free.length / open.length));
  const start = (rank * per) % free.length;
  const rotated = [...free.slice(start), ...free.slice(0, start)];
  if (!input.groupOf) return rotated.slice(0, count);
  const groupOf = input.groupOf;
  const heldPerGroup = new Map<number, number>();
  for (const s of mine.keys()) heldPerGroup.set(groupOf(s), (heldPerGroup.get(groupOf(s)) ?? 0) + 1);
  const held = (s: number) => heldPerGroup.get(groupOf(s)) ?? 0;
  const groups = Math.max(1, ...free.map((s) => groupOf(s) + 1));
  const turn = (s: number) => (groupOf(s) - (rank % groups) + groups) % groups;
  return rotated.sort((a, b) => held(b) - held(a) || turn(a) - turn(b)).slice(0, count);
}
