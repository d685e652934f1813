import { hostKey, hostsOf, planVersionKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * A connection host's heartbeat: written on every lease tick, live while `expiresAtMs` is ahead. It
 * is what keeps the host's shards its own (a lease whose owner has no live heartbeat is free,
 * connection-host/leases.ts). The hosts read each other's to share the shards
 * (connection-host/shard-plan.ts) when the plan's version moves, and a few each tick to notice a
 * dead one (connection-host/shard-leases.ts); the admin route `GET /api/admin/hosts` shows them.
 */
export interface HostRecord {
  hostId: string;
  /** The process id, in local mode only (where several hosts run on one machine). */
  pid?: number;
  shards: number[];
  sessions: number;
  /** Sessions whose link is READY. */
  ready: number;
  rssBytes: number;
  /** Past its memory budget: it takes no more shards (connection-host/memory-budget.ts). */
  full?: boolean;
  /** Taking, resuming or handing over shards: `sessions` is not yet what it will run. */
  busy?: boolean;
  startedAt: string;
  expiresAtMs: number;
}

/** DynamoDB's TTL removes a dead host's item an hour after it stopped beating. */
const REMOVE_AFTER_S = 3600;

export async function beat(record: Omit<HostRecord, 'expiresAtMs'>, ttlMs: number): Promise<void> {
  const expiresAtMs = Date.now() + ttlMs;
  await dataTable.put({
    ...hostKey(record.hostId),
    ...record,
    expiresAtMs,
    expiresAt: Math.ceil(expiresAtMs / 1000) + REMOVE_AFTER_S,
  });
}

/** The hosts whose heartbeat has not run out, by id. */
export async function liveHosts(now = Date.now()): Promise<HostRecord[]> {
  const items = await dataTable.query<HostRecord & { pk: string; sk: string; expiresAt?: number }>({
    ...hostsOf(),
    ascending: true,
  });
  return items.filter((h) => h.expiresAtMs >= now).map(({ pk: _pk, sk: _sk, expiresAt: _e, ...h }) => h);
}

/** A host that stops cleanly leaves at once, so the others count it out before its heartbeat lapses. */
export async function leave(hostId: string): Promise<void> {
  await dataTable.delete(hostKey(hostId));
}

/**
 * When each of these hosts' heartbeat runs out (undefined: none, the host left): one eventually
 * consistent GetItem each, half a read unit while the item is under 4 KB.
 */
export async function heartbeatExpiries(
  hostIds: readonly string[],
): Promise<Map<string, number | undefined>> {
  const items = await Promise.all(hostIds.map((id) => dataTable.get<HostRecord>(hostKey(id))));
  return new Map(hostIds.map((id, i) => [id, items[i]?.expiresAtMs]));
}

/** The plan's version (0 before any bump): half a read unit. */
export async function planVersion(): Promise<number> {
  return (await dataTable.get<{ version?: number }>(planVersionKey()))?.version ?? 0;
}

/** Tells every host to read the leases and heartbeats again on its next tick; answers the new version. */
export async function bumpPlanVersion(): Promise<number | undefined> {
  return (await dataTable.update<{ version?: number }>(planVersionKey(), {}, { add: { version: 1 } }))
    ?.version;
}
