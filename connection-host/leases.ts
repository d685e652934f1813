import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { toAttr } from '#shared/store/db';
import { leaseKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';

/**
 * Shard leases in DynamoDB. A host holds a shard while it renews the lease; a dead host's lease
 * expires and another host takes it. `fence` grows with every new owner.
 */
export interface Lease {
  shard: number;
  owner: string;
  expiresAtMs: number;
  fence: number;
}

export async function tryAcquire(shard: number, owner: string, ttlMs: number): Promise<Lease | undefined> {
  const now = Date.now();
  const item = await dataTable.update<Lease>(
    leaseKey(shard),
    { shard, owner, expiresAtMs: now + ttlMs },
    {
      condition: 'attribute_not_exists(#o) OR #o = :me OR expiresAtMs < :now',
      names: { '#o': 'owner' },
      values: { ':me': owner, ':now': now },
      add: { fence: 1 },
    },
  );
  return item;
}

/** Extends the lease; answers false when another host owns it now. */
export async function renew(shard: number, owner: string, ttlMs: number): Promise<boolean> {
  const item = await dataTable.update(
    leaseKey(shard),
    { expiresAtMs: Date.now() + ttlMs },
    { condition: '#o = :me', names: { '#o': 'owner' }, values: { ':me': owner } },
  );
  return Boolean(item);
}

export async function release(shard: number, owner: string): Promise<void> {
  await dataTable.update(
    leaseKey(shard),
    { expiresAtMs: 0 },
    { condition: '#o = :me', names: { '#o': 'owner' }, values: { ':me': owner } },
  );
}

/** Every shard's lease as it stands (consistent reads); a shard never leased is missing. */
export async function readLeases(shardCount: number): Promise<Lease[]> {
  const keys = Array.from({ length: shardCount }, (_, shard) => leaseKey(shard));
  const found = await dataTable.getMany<Lease>(keys);
  return found.filter((l): l is Lease => l !== undefined);
}

/** The lease a link runs under: its writes are fenced on it. */
export interface LeaseGuard {
  shard: number;
  owner: string;
  fence: number;
}

/** A transaction item that fails unless the lease is still this owner's, under this fence. */
export function leaseCheck(g: LeaseGuard): TransactWriteItem {
  return {
    ConditionCheck: {
      TableName: dataTable.name(),
      Key: toAttr(leaseKey(g.shard)),
      ConditionExpression: '#o = :owner AND fence = :fence',
      ExpressionAttributeNames: { '#o': 'owner' },
      ExpressionAttributeValues: toAttr({ ':owner': g.owner, ':fence': g.fence }),
    },
  };
}

export async function stillHeld(g: LeaseGuard): Promise<boolean> {
  const lease = await dataTable.get<Lease>(leaseKey(g.shard), true);
  return lease?.owner === g.owner && lease.fence === g.fence;
}

/** A write refused because another host holds the session's shard now. */
export class FencedOutError extends Error {
  constructor(g: LeaseGuard) {
    super(`shard ${g.shard} is no longer held by ${g.owner} under fence ${g.fence}; write refused`);
  }
}
