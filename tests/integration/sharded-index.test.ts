import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '#shared/messages/message';
import {
  messageItem,
  messagesNewestFirst,
  saveMessage,
  tenantFeed,
  tenantFeedEntries,
} from '#shared/messages/repository';
import { feedPks, orderKey, orderKeyAt } from '#shared/store/keys';
import { shardOf } from '#shared/store/shards';
import { dataTable } from '#shared/store/tables';
import { newDelivery } from '#shared/webhooks/lifecycle';
import { createDelivery, deliveryItem, listDeliveries } from '#shared/webhooks/repository';
import { must } from '../support/must.ts';

/**
 * The tenant feed and the delivery log are written in shards, one per session (shared/store/
 * shards.ts), and read merged: against the local DynamoDB, a tenant whose sessions land in several
 * shards, plus entries written before the shards (the unsharded partition), reads in one order,
 * newest first or after a key, with limits and session filters as before.
 */
const sessions = ['s-a', 's-b', 's-c', 's-d', 's-e', 's-f'];

function message(tenantId: string, sessionId: string, n: number, base: number): StoredMessage {
  return {
    tenantId,
    sessionId,
    messageId: `m${String(n).padStart(3, '0')}`,
    direction: 'inbound',
    chatId: '919800000001',
    senderPhone: '919800000001',
    kind: 'text',
    text: `n${n}`,
    status: 'delivered',
    timestampMs: base + n,
    feedAtMs: base + n,
    statusAt: base + n,
  };
}

describe('sharded tenant feed and delivery log', () => {
  it('spreads a tenant’s sessions over several shards', () => {
    expect(new Set(sessions.map((s) => shardOf(s))).size).toBeGreaterThan(2);
  });

  it('reads the feed merged from every shard and the unsharded partition, in order, with limits', async () => {
    const tenantId = `tnt_${randomUUID().slice(0, 8)}`;
    const base = 1_790_000_000_000;
    const all: StoredMessage[] = [];
    for (let n = 0; n < 30; n++)
      all.push(
        message(tenantId, must(sessions[n % sessions.length], 'sessions[n % sessions.length]'), n, base),
      );
    // The three oldest as written before the shards: in the tenant's one feed partition.
    for (const m of all.slice(0, 3)) await dataTable.put({ ...messageItem(m), gsi1pk: `T#${tenantId}#FEED` });
    for (const m of all.slice(3)) expect(await saveMessage(m)).toBe(true);
    const ids = (ms: object[]) => ms.map((m) => (m as { messageId?: string }).messageId);
    const newestFirst = ids([...all].reverse());

    expect(ids(await tenantFeed(tenantId, { limit: 7 }))).toEqual(newestFirst.slice(0, 7));
    expect(ids(await tenantFeed(tenantId))).toEqual(newestFirst);
    // After a key (SSE replay), oldest first, paged.
    const after = orderKey(base + 9, 'm009');
    expect(ids(await tenantFeed(tenantId, { after, limit: 5 }))).toEqual(ids(all.slice(10, 15)));
    const entries = await tenantFeedEntries(tenantId, orderKeyAt(base + 1));
    expect(entries.map((e) => e.gsi1sk)).toEqual(
      all.slice(1).map((m) => orderKey(m.timestampMs, m.messageId)),
    );

    const walked: string[] = [];
    for await (const m of messagesNewestFirst({ tenantId }, { pageSize: 4 })) walked.push(m.messageId);
    expect(walked).toEqual(newestFirst);
    // One session: its shard and the unsharded partition only.
    const one: string[] = [];
    for await (const m of messagesNewestFirst({ tenantId, sessionId: 's-b' }, { pageSize: 2 }))
      one.push(m.messageId);
    expect(one).toEqual(ids([...all].reverse().filter((m) => m.sessionId === 's-b')));
    // The read budget is shared by the shards: a small one stops early (past it by at most one
    // item per shard).
    const bounded: string[] = [];
    for await (const m of messagesNewestFirst({ tenantId }, { pageSize: 4, maxRead: 10 }))
      bounded.push(m.messageId);
    expect(bounded.length).toBeLessThanOrEqual(10 + feedPks(tenantId).length);
    expect(bounded.length).toBeLessThan(all.length);
  });

  it('lists deliveries merged from every shard, newest first, with limit, status and session', async () => {
    const tenantId = `tnt_${randomUUID().slice(0, 8)}`;
    const base = 1_790_000_000_000;
    const made: Array<{ id: string; sessionId: string }> = [];
    for (let n = 0; n < 20; n++) {
      const sessionId = must(sessions[n % sessions.length], 'sessions[n % sessions.length]');
      const id = `dlv_${String(n).padStart(24, '0')}`;
      const d = newDelivery(
        { id, tenantId, sessionId, event: 'message.inbound', body: `{"n":${n}}` },
        base + n,
        { step: 'create' },
      );
      if (n < 2) await dataTable.put({ ...deliveryItem(d, base + n), gsi1pk: `T#${tenantId}#DLV` });
      else expect(await createDelivery(d, base + n)).toBe(true);
      made.push({ id, sessionId });
    }
    const newestFirst = [...made].reverse();
    expect((await listDeliveries(tenantId, { limit: 6 })).map((d) => d.id)).toEqual(
      newestFirst.slice(0, 6).map((d) => d.id),
    );
    const all = await listDeliveries(tenantId, { limit: 100 });
    expect(all.map((d) => d.id)).toEqual(newestFirst.map((d) => d.id));
    expect(all[0]?.body).toBe('{"n":19}');
    expect(await listDeliveries(tenantId, { status: 'delivered' })).toEqual([]);
    expect((await listDeliveries(tenantId, { sessionId: 's-c', limit: 2 })).map((d) => d.id)).toEqual(
      newestFirst
        .filter((d) => d.sessionId === 's-c')
        .slice(0, 2)
        .map((d) => d.id),
    );
  });
});
