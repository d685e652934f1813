import { createHash } from 'node:crypto';
import { recordChatActivity } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { saveInbound } from '#shared/messages/repository';
import { getSession } from '#shared/sessions/repository';
import { feedClock } from '#shared/store/keys';
import { publishFeedEvent } from '#shared/stream/feed-event';
import { enqueueWebhook } from '#shared/webhooks/enqueue';
import { storedInbound } from './inbound-messages.ts';

type HistoryEvent = Extract<HostEvent, { kind: 'history' }>;

/** The `history.synced` payload (docs/events.md); also the tenant stream's event. */
export interface HistorySyncedPayload {
  event: 'history.synced';
  session_id: string;
  mobid: string | null;
  /** Messages of this batch stored now (a message already stored is not counted again). */
  count: number;
  /** Messages in this batch, new or not. */
  received: number;
  /** Oldest and newest message time of the batch, epoch ms. */
  from: number;
  to: number;
  sync_type: string;
  progress: number | null;
  timestamp: number;
}

/**
 * Stores a batch of the phone's history, each message marked `history: true`: in history and the
 * chats, but not in the tenant feed, and with no `message.inbound`, chatbot turn or media analysis.
 * Then tells the count as `history.synced`. Idempotent: a message id is stored once, and the
 * event's ids derive from the batch's message ids.
 */
export async function applyHistory(e: HistoryEvent): Promise<void> {
  const results = await Promise.all(
    e.messages.map((m) => {
      const {
        feedAtMs: _notInFeed,
        analysisState: _noAnalysis,
        ...stored
      } = storedInbound({
        ...e,
        kind: 'message.inbound',
        message: { ...m, history: true },
      });
      return saveInbound({ ...stored, history: true });
    }),
  );
  const count = results.filter((r) => r === 'stored' || r === 'replaced').length;
  // The chats list learns of the conversations: per chat, its newest new message and how many.
  const chats = new Map<string, { at: number; name?: string; n: number }>();
  e.messages.forEach((m, i) => {
    if (results[i] !== 'stored') return;
    const c = chats.get(m.chatId) ?? { at: 0, n: 0 };
    chats.set(m.chatId, {
      at: Math.max(c.at, m.timestampMs),
      name: m.groupId ? undefined : (m.senderName ?? c.name),
      n: c.n + 1,
    });
  });
  await Promise.all(
    [...chats].map(([chatId, c]) => recordChatActivity(e.tenantId, e.sessionId, chatId, c.at, c.name, c.n)),
  );
  const session = await getSession(e.tenantId, e.sessionId);
  const times = e.messages.map((m) => m.timestampMs);
  const payload: HistorySyncedPayload = {
    event: 'history.synced',
    session_id: e.sessionId,
    mobid: session?.mobid ?? null,
    count,
    received: e.messages.length,
    from: Math.min(...times),
    to: Math.max(...times),
    sync_type: e.syncType,
    progress: e.progress,
    timestamp: Math.floor(e.at / 1000),
  };
  const batch = createHash('sha256')
    .update(`${e.tenantId}\0${e.sessionId}\0${e.messages.map((m) => m.id).join(',')}`)
    .digest('hex');
  // A repeated batch finds its delivery and feed event: the count told is the first run's.
  await Promise.all([
    enqueueWebhook(e.tenantId, e.sessionId, 'history.synced', payload, { dedupKey: `history:${batch}` }),
    publishFeedEvent(e.tenantId, e.sessionId, `hst_${batch.slice(0, 24)}`, { ...payload }, feedClock()),
  ]);
}
