/**
 * Moves between live hosts that even out sessions, not shards: the hash spreads sessions over the
 * shards unevenly (with about 1.6 sessions a shard, hosts holding equal shard counts carried up to
 * 1.75× the mean), so a host well above the mean hands shards, named for a host below it, to that
 * host. Each host computes the same moves from the same heartbeats and carries out only its own.
 */

/**
 * A host hands shards over once it runs more than this fraction above the mean, and a receiver
 * takes no more than half of it above the mean: a host that received never becomes a sender by
 * it, so no shard goes back and forth (the goal is 1.25× the mean at most).
 */
export const HYSTERESIS = 0.1;

/**
 * What a shard weighs besides its sessions: enough that empty shards still spread evenly (with no
 * sessions at all, weights are shard counts), too little to matter beside one session.
 */
export const SHARD_WEIGHT = 0.001;

export interface MoveInput {
  me: string;
  /** Each live host's weight: its sessions plus SHARD_WEIGHT per shard held. */
  weights: ReadonlyMap<string, number>;
  /** Live hosts past their memory budget: they receive nothing. */
  full: ReadonlySet<string>;
  /** Shards each live host holds. */
  counts: ReadonlyMap<string, number>;
  /** This host's shards with their weights. */
  mine: ReadonlyMap<number, number>;
  /** Shards of this host not to hand over now (a session of theirs is being linked). */
  pinned?: (shard: number) => boolean;
  groupOf: (shard: number) => number;
  /** The groups (command queues) each live host holds shards of. */
  groupsOf?: (host: string) => ReadonlySet<number>;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The shards this host hands over, each with the host it is meant for. Senders (above the mean by
 * more than HYSTERESIS) and receivers (below the mean, room left) are matched in one order every
 * host computes alike, the heaviest sender with the emptiest receiver first; this host then picks
 * its own shards for each of its receivers: those of the command queues it holds fewest shards of
 * first (each queue consumed by few hosts), within one the heaviest that fit (few shards move).
 * A shard without sessions goes only while the receiver holds fewer shards than the mean and this
 * host more: shard counts even out beside the sessions, since new sessions land in proportion.
 */
export function planMoves(input: MoveInput): Map<number, string> {
  const { me, weights, full } = input;
  const moves = new Map<number, string>();
  const hosts = [...weights.keys()];
  if (hosts.length < 2) return moves;
  const weight = (h: string) => weights.get(h) ?? 0;
  const total = hosts.reduce((sum, h) => sum + weight(h), 0);
  const mean = total / hosts.length;
  const high = mean * (1 + HYSTERESIS);
  const cap = mean * (1 + HYSTERESIS / 2);
  if (weight(me) <= high) return moves;

  const senders = hosts.filter((h) => weight(h) > high).sort((a, b) => weight(b) - weight(a) || byId(a, b));
  const receivers = hosts
    .filter((h) => !full.has(h) && weight(h) < mean)
    .sort((a, b) => weight(a) - weight(b) || byId(a, b));
  const deficit = new Map(receivers.map((r) => [r, mean - weight(r)]));
  // What earlier senders are meant to bring each receiver: its room is what is left under `cap`.
  const promised = new Map<string, number>();
  const mineFor: { to: string; amount: number }[] = [];
  for (const s of senders) {
    let surplus = weight(s) - mean;
    for (const r of receivers) {
      if (surplus <= 0) break;
      const amount = Math.min(surplus, deficit.get(r) ?? 0);
      if (amount <= 0) continue;
      if (s === me) mineFor.push({ to: r, amount });
      else promised.set(r, (promised.get(r) ?? 0) + amount);
      surplus -= amount;
      deficit.set(r, (deficit.get(r) ?? 0) - amount);
    }
    if (s === me) break;
  }

  const heldPerGroup = new Map<number, number>();
  for (const s of input.mine.keys()) {
    const g = input.groupOf(s);
    heldPerGroup.set(g, (heldPerGroup.get(g) ?? 0) + 1);
  }
  const held = (s: number) => heldPerGroup.get(input.groupOf(s)) ?? 0;
  const w = (s: number) => input.mine.get(s) ?? 0;
  const order = [...input.mine.keys()].sort(
    (a, b) => held(a) - held(b) || input.groupOf(b) - input.groupOf(a) || w(b) - w(a) || b - a,
  );
  let left = weight(me);
  const meanCount = [...input.counts.values()].reduce((a, b) => a + b, 0) / hosts.length;
  let myCount = input.counts.get(me) ?? 0;
  for (const { to, amount } of mineFor) {
    let theirCount = input.counts.get(to) ?? 0;
    // Up to the amount and a little over (shards are whole), never past the receiver's cap.
    let budget = Math.min(amount + mean * (HYSTERESIS / 2), cap - weight(to) - (promised.get(to) ?? 0));
    // Shards of queues the receiver consumes already first: fewer hosts share each queue, so
    // fewer commands are received by a host that must put them back.
    const theirs = input.groupsOf?.(to);
    const forThem = theirs
      ? [...order].sort(
          (a, b) => Number(!theirs.has(input.groupOf(a))) - Number(!theirs.has(input.groupOf(b))),
        )
      : order;
    for (const s of forThem) {
      // Half a shard's own weight of leeway: sums of many small weights are not exact.
      if (left <= mean + SHARD_WEIGHT / 2) return moves;
      if (moves.has(s) || w(s) > budget || input.pinned?.(s)) continue;
      if (w(s) <= SHARD_WEIGHT && !(myCount > meanCount && theirCount + 1 <= meanCount)) continue;
      moves.set(s, to);
      budget -= w(s);
      left -= w(s);
      myCount--;
      theirCount++;
    }
    promised.set(to, (promised.get(to) ?? 0) + amount);
  }
  return moves;
}
