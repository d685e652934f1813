import { leaseKey, leasesOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/**
 * Shard leases in DynamoDB, written only when a shard changes hands: a host keeps its shards by
 * beating its own heartbeat (shared/hosts/registry.ts), not by renewing each lease. A shard whose
 * owner has no live heartbeat is free. `fence` grows with every new owner: a session's epoch
 * (session-fence.ts) is its shard's fence, so a host that lost the shard writes nothing more.
 */
export interface Lease {
  shard: number;
  /** Absent once released. */
  owner?: string;
  /** Released for this host (a hand-over that evens out sessions, shard-moves.ts); gone once taken. */
  to?: string;
  fence: number;
}

/**
 * Takes the shard if it still is as the caller read it (`seen`: its owner, dead or absent, and
 * fence): a compare-and-swap, so of two hosts that saw it free only one wins. Answers the new fence.
 */
export async function take(
  shard: number,
  owner: string,
  seen: { owner?: string; fence?: number },
): Promise<number | undefined> {
  const condition =
    seen.fence === undefined
      ? 'attribute_not_exists(fence)'
      : seen.owner === undefined
        ? 'fence = :seen AND attribute_not_exists(#o)'
        : 'fence = :seen AND #o = :prev';
  const item = await dataTable.update<Lease>(
    leaseKey(shard),
    { shard, owner },
    {
      condition,
      // DynamoDB refuses a name the expressions do not use.
      names: seen.fence === undefined ? {} : { '#o': 'owner' },
      values: {
        ...(seen.fence === undefined ? {} : { ':seen': seen.fence }),
        ...(seen.owner === undefined ? {} : { ':prev': seen.owner }),
      },
      add: { fence: 1 },
      remove: ['to'],
    },
  );
  return item?.fence;
}

/**
 * Gives the shard up (a clean hand-over): the next host takes it at once, without waiting for a
 * TTL; with `to`, that host (while it lives and has room: connection-host/shard-plan.ts).
 */
export async function release(shard: number, owner: string, to?: string): Promise<void> {
  await dataTable.update(
    leaseKey(shard),
    { to },
    {
      condition: '#o = :me',
      names: { '#o': 'owner' },
      values: { ':me': owner },
      remove: to === undefined ? ['owner', 'to'] : ['owner'],
    },
  );
}

/** Every shard's lease as it stands (one partition); a shard never leased is missing. */
export async function readLeases(): Promise<Lease[]> {
  const items = await dataTable.query<Lease & { pk: string; sk: string }>({ ...leasesOf(), ascending: true });
  return items.map(({ shard, owner, to, fence }) => ({ shard, owner, to, fence }));
}

/** The lease a link runs under: its session's epoch is this fence. */
export interface LeaseGuard {
  shard: number;
  owner: string;
  fence: number;
}
