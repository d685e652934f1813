import { type AttributeValue, QueryCommand } from '@aws-sdk/client-dynamodb';
import { dynamoClient } from '../aws/clients.ts';
import { names as resourceNames } from '../aws/names.ts';
import type { MessageStatus } from '../events/types.ts';
import { fromAttr, toAttr } from '../store/db.ts';
import { chatMessagesPk, feedPks, messageIndexKeys, messageKey } from '../store/keys.ts';
import { mergeDescending, mergeSorted } from '../store/shards.ts';
import { dataTable } from '../store/tables.ts';
import type { FeedEventRow } from '../stream/feed-event.ts';
import { DECRYPT_FAILED, isDecryptFailed } from './content.ts';
import { type StoredMessage, statusRank } from './message.ts';

/** Stores a message once; a second save of the same id is a no-op that answers false. */
export async function saveMessage(m: StoredMessage): Promise<boolean> {
  return dataTable.put(messageItem(m), { ifAbsent: true });
}

/**
 * What storing an inbound message did: `stored` it (new), `replaced` the `decrypt_failed`
 * placeholder of its id, found it `present` already (a repeat), or found the placeholder it is
 * `superseded` by the real message.
 */
export type InboundSave = 'stored' | 'replaced' | 'present' | 'superseded';

/**
 * Stores an inbound message once, with the one exception of placeholders: an undecryptable
 * message's placeholder (`decrypt_failed`) is replaced by the real message of its id, once; a
 * placeholder never replaces anything. Each outcome is stable under repeats (idempotent).
 */
export async function saveInbound(m: StoredMessage): Promise<InboundSave> {
  if (await saveMessage(m)) return 'stored';
  if (isDecryptFailed(m)) {
    const stored = await getMessage(m.tenantId, m.sessionId, m.messageId);
    return stored && !isDecryptFailed(stored) ? 'superseded' : 'present';
  }
  const replaced = await dataTable.put(messageItem(m), {
    condition: {
      expression: '#kind = :placeholder',
      names: { '#kind': 'kind' },
      values: { ':placeholder': DECRYPT_FAILED },
    },
  });
  return replaced ? 'replaced' : 'present';
}

/** The item `saveMessage` writes (for writes that batch several items in one transaction). */
export function messageItem(m: StoredMessage) {
  const index = messageIndexKeys(m);
  // A message waiting for its media analysis joins the tenant feed (gsi1) when it is published.
  const { gsi1pk: _pk, gsi1sk: _sk, ...unpublished } = index;
  return {
    ...messageKey(m.tenantId, m.sessionId, m.messageId),
    // History synced at linking is not news: it stays out of the tenant feed (the stream).
    ...(m.analysisState === 'pending' || m.history ? unpublished : index),
    type: 'message',
    ...m,
    statusRank: statusRank(m.status),
  };
}

/** Removes a message that was stored but then refused (quota); only for that undo. */
export async function deleteMessage(tenantId: string, sessionId: string, messageId: string): Promise<void> {
  await dataTable.delete(messageKey(tenantId, sessionId, messageId));
}

export async function getMessage(tenantId: string, sessionId: string, messageId: string) {
  return dataTable.get<StoredMessage>(messageKey(tenantId, sessionId, messageId));
}

/** Moves the status forward only; answers the updated message, or undefined when nothing changed. */
export async function advanceStatus(
  tenantId: string,
  sessionId: string,
  messageId: string,
  status: MessageStatus,
  at: number,
  reason?: string,
): Promise<StoredMessage | undefined> {
  return dataTable.update<StoredMessage>(
    messageKey(tenantId, sessionId, messageId),
    { status, statusRank: statusRank(status), statusAt: at, statusReason: reason },
    {
      condition: 'attribute_exists(pk) AND statusRank < :rank AND #st <> :failed',
      names: { '#st': 'status' },
      values: { ':rank': statusRank(status), ':failed': 'failed' },
    },
  );
}

/**
 * The tenant feed, newest first, or after an order key (oldest first) for SSE replay: its messages
 * and its events that are not messages (`direction: 'event'`, shared/stream/feed-event.ts).
 */
export async function tenantFeed(tenantId: string, opt: { limit?: number; after?: string } = {}) {
  // Each shard's first `limit` in the order asked, merged: the first `limit` of all are among them.
  const ascending = opt.after !== undefined;
  const shards = await Promise.all(
    feedPks(tenantId).map((pk) =>
      dataTable.query<(StoredMessage | FeedEventRow) & { gsi1sk: string }>({
        index: 'gsi1',
        pk,
        skAfter: opt.after,
        ascending,
        limit: opt.limit,
      }),
    ),
  );
  const merged = mergeSorted(shards, (m) => m.gsi1sk, !ascending);
  return opt.limit === undefined ? merged : merged.slice(0, opt.limit);
}

/** A feed entry without its message: what the live stream re-reads on every poll. */
export interface FeedEntry {
  pk: string;
  sk: string;
  gsi1sk: string;
  direction: StoredMessage['direction'] | 'event';
}

/** The tenant feed after `after` (an order key), oldest first, keys and direction only. */
export async function tenantFeedEntries(tenantId: string, after: string): Promise<FeedEntry[]> {
  return feedEntries(feedPks(tenantId).map((pk) => ({ pk, after })));
}

/**
 * Some partitions of the tenant feed, each after its own order key, merged oldest first, keys and
 * direction only: the live stream reads only the shards its tenant's sessions write to.
 */
export async function feedEntries(reads: Array<{ pk: string; after: string }>): Promise<FeedEntry[]> {
  const shards = await Promise.all(
    reads.map(({ pk, after }) =>
      dataTable.query<FeedEntry>({
        index: 'gsi1',
        pk,
        skAfter: after,
        ascending: true,
        project: ['pk', 'sk', 'gsi1sk', 'direction'],
      }),
    ),
  );
  return mergeSorted(shards, (e) => e.gsi1sk, false);
}

type FeedItem = (StoredMessage | FeedEventRow) & { gsi1sk: string };

/** The items of feed entries (strongly consistent), in their order; a missing one is left out. */
export async function feedMessages(entries: FeedEntry[]): Promise<FeedItem[]> {
  const found = await dataTable.getMany<FeedItem>(entries.map((e) => ({ pk: e.pk, sk: e.sk })));
  return found.filter((m): m is FeedItem => m !== undefined);
}

/** What the history views select; everything but the partition is a DynamoDB filter. */
export interface MessageQuery {
  tenantId: string;
  /** One chat (the gsi2 chat index); without it, the tenant feed (gsi1). */
  chatId?: string;
  sessionId?: string;
  direction?: 'inbound' | 'outbound';
  kinds?: readonly string[];
  /** One chat only: messages strictly older than this gsi2 order key (`orderKey`), for paging. */
  beforeKey?: string;
}

/**
 * The query's messages, newest first, page by page. Reading stops after `maxRead` items have been
 * evaluated, so a rare filter over a long feed costs a bounded number of reads, never a scan.
 */
export function messagesNewestFirst(
  q: MessageQuery,
  opt: { pageSize?: number; maxRead?: number } = {},
): AsyncGenerator<StoredMessage> {
  const budget = { read: 0, max: opt.maxRead ?? 5000 };
  const pageSize = opt.pageSize ?? 200;
  if (q.chatId !== undefined)
    return partitionNewestFirst(q, 'gsi2', chatMessagesPk(q.tenantId, q.chatId), pageSize, budget);
  // The tenant feed's shards (one session's only, given one), merged. They share the read budget,
  // and each reads smaller pages: a reader that wants n entries needs about n / shards of each.
  // Together they read at most `maxRead` plus one item per shard.
  const pks = feedPks(q.tenantId, q.sessionId);
  const perShard = Math.min(pageSize, Math.max(25, Math.ceil(pageSize / (pks.length - 1))));
  const fair = Math.max(1, Math.ceil(budget.max / pks.length));
  const shards = pks.map((pk) => partitionNewestFirst(q, 'gsi1', pk, Math.min(perShard, fair), budget));
  return mergeDescending(shards, (m) => (m as StoredMessage & { gsi1sk: string }).gsi1sk);
}

/** One partition's messages of the query, newest first, while the shared read budget lasts. */
async function* partitionNewestFirst(
  q: MessageQuery,
  index: 'gsi1' | 'gsi2',
  pk: string,
  pageSize: number,
  budget: { read: number; max: number },
): AsyncGenerator<StoredMessage> {
  const names: Record<string, string> = { '#pk': `${index}pk` };
  const values: Record<string, unknown> = { ':pk': pk };
  const filters: string[] = [];
  let keyCondition = '#pk = :pk';
  if (q.beforeKey !== undefined && q.chatId !== undefined) {
    names['#sk'] = 'gsi2sk';
    values[':before'] = q.beforeKey;
    keyCondition += ' AND #sk < :before';
  }
  if (q.chatId === undefined) {
    // The tenant feed also holds the stream's events that are not messages (feed-event.ts).
    names['#type'] = 'type';
    values[':message'] = 'message';
    filters.push('#type = :message');
  }
  if (q.sessionId !== undefined) {
    names['#sid'] = 'sessionId';
    values[':sid'] = q.sessionId;
    filters.push('#sid = :sid');
  }
  if (q.direction !== undefined) {
    names['#dir'] = 'direction';
    values[':dir'] = q.direction;
    filters.push('#dir = :dir');
  }
  if (q.kinds?.length) {
    names['#kind'] = 'kind';
    const keys = q.kinds.map((k, i) => {
      values[`:k${i}`] = k;
      return `:k${i}`;
    });
    filters.push(`#kind IN (${keys.join(', ')})`);
  }
  let start: Record<string, AttributeValue> | undefined;
  do {
    if (budget.read >= budget.max) return;
    const r = await dynamoClient().send(
      new QueryCommand({
        TableName: resourceNames.dataTable(),
        IndexName: index,
        KeyConditionExpression: keyCondition,
        FilterExpression: filters.length ? filters.join(' AND ') : undefined,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: toAttr(values),
        ScanIndexForward: false,
        Limit: Math.min(pageSize, budget.max - budget.read),
        ExclusiveStartKey: start,
      }),
    );
    budget.read += r.ScannedCount ?? 0;
    for (const it of r.Items ?? []) yield fromAttr(it) as unknown as StoredMessage;
    start = r.LastEvaluatedKey;
  } while (start && budget.read < budget.max);
}

/**
 * An analysed media message joins the tenant feed when it is published, a few seconds after it
 * arrived; reading this many more than asked and ordering by message time shows it in its place.
 */
const REORDER_MARGIN = 25;

/** Up to `limit` messages of the query, newest first (by message time). */
export async function queryMessages(
  q: MessageQuery,
  limit: number,
  opt: { maxRead?: number } = {},
): Promise<StoredMessage[]> {
  const out: StoredMessage[] = [];
  if (limit <= 0) return out;
  const want = limit + REORDER_MARGIN;
  // Without filters a page of `want` is exactly enough; with filters read in larger pages.
  const filtered = q.sessionId !== undefined || q.direction !== undefined || Boolean(q.kinds?.length);
  const pageSize = filtered ? Math.max(100, Math.min(1000, want * 4)) : Math.min(1000, want);
  for await (const m of messagesNewestFirst(q, { pageSize, maxRead: opt.maxRead })) {
    out.push(m);
    if (out.length >= want) break;
  }
  return out.sort((a, b) => b.timestampMs - a.timestampMs).slice(0, limit);
}
