import { createHash } from 'node:crypto';
import type { HostEvent } from '../events/types.ts';
import { getSession } from '../sessions/repository.ts';
import { feedClock, messageKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { publishFeedEvent } from '../stream/feed-event.ts';
import { enqueueWebhook } from '../webhooks/enqueue.ts';
import type { StoredMessage } from './message.ts';

export type MessageChange = Extract<HostEvent, { kind: 'message.changed' }>;

/** The `message.edited` / `message.deleted` payload (docs/events.md); also the tenant stream's event. */
export interface MessageChangeEvent {
  event: 'message.edited' | 'message.deleted';
  session_id: string;
  mobid: string | null;
  message_id: string;
  chat_id: string;
  from_me: boolean;
  /** The new text of an edit; null for a deletion. */
  text: string | null;
  /** A deletion: for everyone in the chat, or from this service's history only; null for an edit. */
  for_everyone: boolean | null;
  timestamp: number;
}

/** Where an edit's text goes: a text message's text, a media message's caption. */
const editedField = (m: StoredMessage | undefined) => (m?.kind === 'text' || !m ? 'text' : 'caption');

/**
 * Applies an edit or a deletion to the stored message (when we have it), then tells it as a
 * `message.edited` / `message.deleted` webhook and tenant stream event. Idempotent: the same change
 * again rewrites the same fields and finds the same delivery and feed event.
 */
export async function applyMessageChange(e: MessageChange): Promise<void> {
  const key = messageKey(e.tenantId, e.sessionId, e.messageId);
  const stored = await dataTable.get<StoredMessage>(key);
  if (stored) {
    if (e.change === 'edited') {
      await dataTable.update(key, { [editedField(stored)]: e.text ?? '', editedAt: e.at });
    } else {
      // Deleted: what it said leaves history too.
      await dataTable.update(
        key,
        { deletedAt: e.at },
        { remove: ['text', 'caption', 'mediaUrl', 'location', 'contacts', 'poll'] },
      );
    }
  }
  const session = await getSession(e.tenantId, e.sessionId);
  const event = e.change === 'edited' ? 'message.edited' : 'message.deleted';
  const payload: MessageChangeEvent = {
    event,
    session_id: e.sessionId,
    mobid: session?.mobid ?? null,
    message_id: e.messageId,
    chat_id: e.chatId,
    from_me: e.fromMe,
    text: e.change === 'edited' ? (e.text ?? '') : null,
    for_everyone: e.change === 'deleted' ? (e.forEveryone ?? true) : null,
    timestamp: Math.floor(e.at / 1000),
  };
  const change = `${e.sessionId}:${e.messageId}:${e.change}:${e.text ?? ''}`;
  const eventId = `chg_${createHash('sha256').update(`${e.tenantId}\0${change}`).digest('hex').slice(0, 24)}`;
  await Promise.all([
    enqueueWebhook(e.tenantId, e.sessionId, event, payload, { dedupKey: change }),
    publishFeedEvent(e.tenantId, e.sessionId, eventId, { ...payload }, feedClock()),
  ]);
}
