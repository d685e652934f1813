import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { toAttr } from '#shared/store/db';
import { authEpochKey } from '#shared/store/keys';
import { authTable } from '#shared/store/tables';
import type { LeaseGuard } from './leases.ts';

/**
 * Per-session fencing. A session's epoch item lives in its own auth partition
 * (`AUTH#<sessionId>`, sk `epoch`): a host that starts a session's link raises the epoch to the
 * fence of the shard lease it holds; every credential/key write checks the epoch in the same
 * single-partition transaction, and every send reads it first. A host that lost the shard holds an
 * older fence, so its writes and sends are refused, with no shared item checked on every write.
 *
 * The epoch is the shard's fence (leases.ts), which grows with every new owner of the shard; a
 * session keeps its shard for life (a stable hash of its id), so the epoch only ever grows.
 */
interface Epoch {
  epoch: number;
  owner: string;
}

/**
 * Claims the session for the lease's holder: answers false when a later holder has claimed it
 * already (this host is stale and must not run the link).
 */
export async function claimSession(sessionId: string, g: LeaseGuard): Promise<boolean> {
  const item = await authTable.update<Epoch>(
    authEpochKey(sessionId),
    { epoch: g.fence, owner: g.owner },
    { condition: 'attribute_not_exists(epoch) OR epoch <= :fence', values: { ':fence': g.fence } },
  );
  return item !== undefined;
}

/** A transaction item that fails unless the session's epoch is still this lease's. */
export function epochCheck(sessionId: string, g: LeaseGuard): TransactWriteItem {
  return {
    ConditionCheck: {
      TableName: authTable.name(),
      Key: toAttr(authEpochKey(sessionId)),
      ConditionExpression: 'epoch = :fence AND #o = :owner',
      ExpressionAttributeNames: { '#o': 'owner' },
      ExpressionAttributeValues: toAttr({ ':fence': g.fence, ':owner': g.owner }),
    },
  };
}

/** Whether the session is still this lease's (one consistent read of the session's own item). */
export async function holdsSession(sessionId: string, g: LeaseGuard): Promise<boolean> {
  const item = await authTable.get<Epoch>(authEpochKey(sessionId), true);
  return item?.epoch === g.fence && item.owner === g.owner;
}

/** A write or send refused because another host runs the session now. */
export class FencedOutError extends Error {
  constructor(sessionId: string, g: LeaseGuard) {
    super(
      `session ${sessionId} is no longer run by ${g.owner} under epoch ${g.fence} (shard ${g.shard}); refused`,
    );
  }
}
