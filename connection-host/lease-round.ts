/**
 * One planning round of the lease loop (shard-leases.ts), from the leases and heartbeats it read:
 * notice shards another host took, free stray leases under this host's id, then take this host's
 * share of the free shards or hand over what it holds beyond it (shard-plan.ts). Apart from the
 * loop because it is the part that decides; the loop only says when to read and run it.
 */
import type { Logger } from '#shared/log/logger';
import type { HostView } from './heartbeat.ts';
import type { HeldShards, ShardHandlers } from './held-shards.ts';
import type { Lease, readLeases, release, take } from './leases.ts';
import { heartbeatsAgree, planShards } from './shard-plan.ts';

export interface LeaseStore {
  take: typeof take;
  release: typeof release;
  readLeases: typeof readLeases;
}

/** Conditional writes in flight at once while taking shards. */
const TAKE_PARALLEL = 64;

export interface Round {
  hostId: string;
  shardCount: number;
  held: HeldShards;
  /** The live hosts as just read. */
  hosts: HostView[];
  handlers: ShardHandlers;
  store: LeaseStore;
  log: Logger;
  /** The host is stopping: it takes no more shards. */
  stopping(): boolean;
}

/**
 * Plans from the leases read. Answers whether this host took, released or lost a shard (the
 * others must read again), and whether it found nothing to do with every host at rest.
 */
export async function planRound(r: Round, leases: Lease[]): Promise<{ moved: boolean; quiet: boolean }> {
  const { hostId, shardCount, held, hosts, handlers, store, log } = r;
  const byShard = new Map(leases.map((l) => [l.shard, l]));
  // A later fence means another host took the shard. An older one is a read that lags this
  // host's own take: the partition is read eventually consistent.
  let lost = false;
  for (const [shard, fence] of held.fences()) {
    const now = byShard.get(shard);
    if (now && now.fence > fence && !held.isLeaving(shard)) {
      held.letGo(shard, 'lost');
      lost = true;
    }
  }

  // Leases under this host's id that it does not hold (an earlier run under the same id, a
  // release that failed) would count as live to the others forever: freed, they are shared again.
  const strays = leases.filter((l) => l.owner === hostId && !held.has(l.shard));
  await Promise.all(
    strays.map((l) =>
      store.release(l.shard, hostId).catch((err: unknown) => log.warn({ err }, 'release failed')),
    ),
  );
  if (strays.length) return { moved: true, quiet: false };

  // One change at a time: while a shard is being let go, the counts others read are in motion.
  if (held.anyLeaving() || !hosts.length) return { moved: lost, quiet: false };
  const settled = !held.busy() && heartbeatsAgree(hostId, hosts, leases);
  const full = handlers.full?.() ?? false;
  const plan = planShards({
    me: hostId,
    hosts: hosts.map((h) => h.hostId),
    full: [
      ...hosts.filter((h) => h.full && h.hostId !== hostId).map((h) => h.hostId),
      ...(full ? [hostId] : []),
    ],
    // What this host holds, as it knows it: the read may lag its own takes.
    leases: [
      ...leases.filter((l) => !held.has(l.shard)),
      ...held.owned().map((shard) => ({ shard, owner: hostId })),
    ],
    shardCount,
    sessions: new Map(hosts.map((h) => [h.hostId, h.sessions ?? 0])),
    beats: new Map(hosts.flatMap((h) => (h.shards ? [[h.hostId, h.shards] as const] : []))),
    settled,
    load: handlers.load?.bind(handlers),
    pinned: handlers.pinned?.bind(handlers),
    groupOf: handlers.groupOf?.bind(handlers),
  });
  if (plan.release.length)
    log.info({ shards: plan.release.length, target: plan.target }, 'handing shards over');
  for (const shard of plan.release) held.letGo(shard, 'release', plan.to.get(shard));
  const wanted = plan.take.filter((s) => !held.has(s));
  const before = held.size;
  for (let i = 0; i < wanted.length && !r.stopping(); i += TAKE_PARALLEL) {
    await Promise.all(
      wanted.slice(i, i + TAKE_PARALLEL).map(async (shard) => {
        const seen = byShard.get(shard);
        try {
          const fence = await store.take(shard, hostId, { owner: seen?.owner, fence: seen?.fence });
          if (fence === undefined) return;
          held.took(shard, fence);
        } catch (err) {
          log.error({ err, shard }, 'lease take failed');
        }
      }),
    );
  }
  const took = held.size - before;
  if (took) log.info({ took, held: held.size, target: plan.target }, 'shards taken');
  const moved = lost || took > 0 || plan.release.length > 0;
  return { moved, quiet: !moved && settled && !plan.take.length };
}
