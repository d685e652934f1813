import { INDEX_SHARDS, shardOf } from '../shards.ts';
import { orderKey } from './order.ts';

// Index partitions: gsi1 = tenant feed, deliveries, shard sessions; gsi2 = one chat's messages.
// The tenant feed and the delivery log are written in shards, one per session (store/shards.ts):
// `T#<t>#FEED#<n>`, `T#<t>#DLV#<n>`. Entries written before the shards sit in `T#<t>#FEED` and
// `T#<t>#DLV`, which readers still read (deliveries expire after 30 days, feed events after 7).

/** The tenant feed partition a session's entries are written to. */
export const feedPk = (tenantId: string, sessionId: string) => `T#${tenantId}#FEED#${shardOf(sessionId)}`;
/** Every partition of the tenant feed (of one session's shard only, given one), to read and merge. */
export const feedPks = (tenantId: string, sessionId?: string) => shardedPks(`T#${tenantId}#FEED`, sessionId);
/** The tenant feed's unsharded partition: entries from before the shards, written no more. */
export const legacyFeedPk = (tenantId: string) => `T#${tenantId}#FEED`;
export const chatMessagesPk = (tenantId: string, chatId: string) => `T#${tenantId}#C#${chatId}`;
/** The delivery log partition a session's deliveries are written to. */
export const deliveriesPk = (tenantId: string, sessionId: string) =>
  `T#${tenantId}#DLV#${shardOf(sessionId)}`;
/** Every partition of the delivery log (of one session's shard only, given one). */
export const deliveriesPks = (tenantId: string, sessionId?: string) =>
  shardedPks(`T#${tenantId}#DLV`, sessionId);

/** The unsharded partition (entries from before the shards), then the shards. */
const shardedPks = (base: string, sessionId?: string) =>
  sessionId === undefined
    ? [base, ...Array.from({ length: INDEX_SHARDS }, (_, n) => `${base}#${n}`)]
    : [base, `${base}#${shardOf(sessionId)}`];

/**
 * A message's order key in its tenant feed (gsi1, and the stream's event id): when it joined the
 * feed (`feedAtMs`: stored, or published after its analysis), or its own time for a message stored
 * without that.
 */
export const feedKey = (m: { timestampMs: number; feedAtMs?: number; messageId: string }) =>
  orderKey(m.feedAtMs ?? m.timestampMs, m.messageId);

/** The index attributes of a message: the tenant feed (gsi1) and its chat (gsi2, in message time). */
export const messageIndexKeys = (m: {
  tenantId: string;
  sessionId: string;
  chatId: string;
  timestampMs: number;
  feedAtMs?: number;
  messageId: string;
}) => ({
  gsi1pk: feedPk(m.tenantId, m.sessionId),
  gsi1sk: feedKey(m),
  gsi2pk: chatMessagesPk(m.tenantId, m.chatId),
  gsi2sk: orderKey(m.timestampMs, m.messageId),
});

export const deliveryIndexKeys = (
  tenantId: string,
  sessionId: string,
  createdAtMs: number,
  deliveryId: string,
) => ({
  gsi1pk: deliveriesPk(tenantId, sessionId),
  gsi1sk: orderKey(createdAtMs, deliveryId),
});
