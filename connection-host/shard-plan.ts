/** One shard's lease as every host reads it. A released lease has expired (expiresAtMs 0). */
export interface LeaseView {
  shard: number;
  owner?: string;
  expiresAtMs: number;
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

/**
 * Which shards this host should take or hand over, from what every host can read: the live hosts
 * (their heartbeats) and the leases. Each host computes the same targets: ⌊S/N⌋ each, and one more
 * for the S mod N hosts that hold the most already (ties by id), so a balanced spread stays put and
 * a joining host (holding none) is the one that receives. The targets add up to S, so every shard
 * finds a holder. A lease held by a host with no heartbeat counts as taken until it expires.
 */
export function planShards(input: {
  me: string;
  hosts: readonly string[];
  leases: readonly LeaseView[];
  shardCount: number;
  now: number;
  /** Sessions a held shard runs: the lightest shards move first, so a hand-over closes few links. */
  load?: (shard: number) => number;
}): ShardPlan {
  const { me, shardCount, now } = input;
  const live = [...new Set([...input.hosts, me])];
  const ownerOf = new Map<number, string>();
  for (const l of input.leases) if (l.owner && l.expiresAtMs >= now) ownerOf.set(l.shard, l.owner);

  const counts = new Map(live.map((h) => [h, 0]));
  for (const owner of ownerOf.values()) if (counts.has(owner)) counts.set(owner, counts.get(owner)! + 1);
  const ranked = [...live].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  const base = Math.floor(shardCount / live.length);
  const extra = shardCount % live.length;
  const rank = ranked.indexOf(me);
  const target = base + (rank < extra ? 1 : 0);

  const mine: number[] = [];
  const free: number[] = [];
  for (let shard = 0; shard < shardCount; shard++) {
    const owner = ownerOf.get(shard);
    if (owner === me) mine.push(shard);
    else if (owner === undefined) free.push(shard);
  }

  if (mine.length > target + slackOf(target)) {
    const load = input.load ?? (() => 0);
    const lightestFirst = [...mine].sort((a, b) => load(a) - load(b) || b - a);
    return { target, take: [], release: lightestFirst.slice(0, mine.length - target) };
  }
  // Hosts short of their target start at different free shards, so they seldom race for one.
  const start = free.length ? (rank * Math.max(1, base)) % free.length : 0;
  const rotated = [...free.slice(start), ...free.slice(0, start)];
  return { target, take: rotated.slice(0, Math.max(0, target - mine.length)), release: [] };
}
