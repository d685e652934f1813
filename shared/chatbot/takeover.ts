import { createHash } from 'node:crypto';
import { feedClock, takeoverKey, takeoversOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { publishFeedEvent } from '../stream/feed-event.ts';
import { enqueueWebhook } from '../webhooks/enqueue.ts';
import { tenantProfile } from './knowledge.ts';
import { sessionKeysOf } from './session-keys.ts';
import { readSwitches } from './switches.ts';

/**
 * Human takeover (docs/chatbot.md, "Human takeover"): while a person of the business writes to a
 * customer, the bot stays out of that one chat. One item per session and chat holds until when, and
 * who took it over; every change is told as a `chat.takeover` webhook and tenant stream event.
 */

/** Who took the chat over: the business's phone, an API send, or the takeover route (the console). */
export type TakeoverBy = 'phone' | 'api' | 'console';

export type Takeover = {
  sessionId: string;
  chatId: string;
  /** Epoch ms: the bot answers the chat again from then on. */
  until: number;
  by: TakeoverBy;
};

type TakeoverItem = Takeover & { type: 'takeover'; updatedAt: number; expiresAt: number };

export interface TakeoverSession {
  sessionId: string;
  mobid?: string;
  mobile_number?: string;
}

/** The `chat.takeover` payload (docs/events.md). */
export interface TakeoverEvent {
  event: 'chat.takeover';
  session_id: string;
  mobid: string | null;
  chat_id: string;
  paused: boolean;
  /** ISO time the pause ends; null when handed back. */
  until: string | null;
  by: TakeoverBy;
  timestamp: number;
}

/** The minutes a takeover lasts for the session: its most specific key's value, else CHATBOT_TAKEOVER_MINUTES. */
export async function takeoverMinutesFor(tenantId: string, session: TakeoverSession): Promise<number> {
  const keys = sessionKeysOf(
    { sessionId: session.sessionId, mobid: session.mobid, mobile: session.mobile_number },
    await tenantProfile(tenantId),
  );
  return (await readSwitches(tenantId, keys)).takeoverMinutes;
}

/**
 * The business wrote to the chat (`at`: when): the bot stays out of it until `at` + the session's
 * takeover minutes, or later if it already was. Only ever extends, so a repeated or late event
 * changes nothing; answers the takeover when it changed (and the event was sent), else undefined.
 */
export async function extendTakeover(
  tenantId: string,
  session: TakeoverSession,
  chatId: string,
  by: TakeoverBy,
  at: number,
): Promise<Takeover | undefined> {
  const minutes = await takeoverMinutesFor(tenantId, session);
  const until = Math.round(at + minutes * 60_000);
  if (until <= Date.now()) return undefined;
  const changed = await dataTable.update<TakeoverItem>(
    takeoverKey(tenantId, session.sessionId, chatId),
    itemOf({ sessionId: session.sessionId, chatId, until, by }),
    {
      condition: 'attribute_not_exists(pk) OR #until < :until',
      names: { '#until': 'until' },
      values: { ':until': until },
    },
  );
  if (!changed) return undefined;
  const t = { sessionId: session.sessionId, chatId, until, by };
  await announce(tenantId, session, t, true);
  return t;
}

/**
 * Pauses the chat for exactly `minutes` from now (the session's takeover minutes when not given),
 * replacing any pause it had, shorter or longer. Answers the takeover.
 */
export async function pauseChat(
  tenantId: string,
  session: TakeoverSession,
  chatId: string,
  by: TakeoverBy,
  minutes?: number,
): Promise<Takeover> {
  const m = minutes ?? (await takeoverMinutesFor(tenantId, session));
  const t: Takeover = {
    sessionId: session.sessionId,
    chatId,
    until: Math.round(Date.now() + m * 60_000),
    by,
  };
  await dataTable.put({ ...takeoverKey(tenantId, session.sessionId, chatId), ...itemOf(t) });
  await announce(tenantId, session, t, true);
  return t;
}

/** Hands the chat back to the bot; answers whether it was paused (only then is the event sent). */
export async function resumeChat(
  tenantId: string,
  session: TakeoverSession,
  chatId: string,
  by: TakeoverBy,
): Promise<boolean> {
  const key = takeoverKey(tenantId, session.sessionId, chatId);
  const was = await dataTable.get<TakeoverItem>(key, true);
  if (!was) return false;
  await dataTable.delete(key);
  if (was.until <= Date.now()) return false;
  await announce(tenantId, session, { sessionId: session.sessionId, chatId, until: Date.now(), by }, false);
  return true;
}

/** The chat's takeover in force now (strongly consistent: a pause applies to the very next turn). */
export async function activeTakeover(
  tenantId: string,
  sessionId: string,
  chatId: string,
  now = Date.now(),
): Promise<Takeover | undefined> {
  const it = await dataTable.get<TakeoverItem>(takeoverKey(tenantId, sessionId, chatId), true);
  return it && it.until > now ? publicOf(it) : undefined;
}

/** The session's paused chats now, the pause ending soonest first. */
export async function listTakeovers(
  tenantId: string,
  sessionId: string,
  now = Date.now(),
): Promise<Takeover[]> {
  const items = await dataTable.query<TakeoverItem>(takeoversOf(tenantId, sessionId));
  return items
    .filter((it) => it.until > now)
    .map(publicOf)
    .sort((a, b) => a.until - b.until);
}

const publicOf = (it: TakeoverItem): Takeover => ({
  sessionId: it.sessionId,
  chatId: it.chatId,
  until: it.until,
  by: it.by,
});

const itemOf = (t: Takeover): TakeoverItem => ({
  type: 'takeover',
  ...t,
  updatedAt: Date.now(),
  // Removed by the table's TTL a day after it ended.
  expiresAt: Math.floor(t.until / 1000) + 86_400,
});

/**
 * The `chat.takeover` webhook and stream event of one change. Both are keyed by the change (chat,
 * state, until), so a retried caller sends each once.
 */
async function announce(tenantId: string, session: TakeoverSession, t: Takeover, paused: boolean) {
  const payload: TakeoverEvent = {
    event: 'chat.takeover',
    session_id: session.sessionId,
    mobid: session.mobid ?? null,
    chat_id: t.chatId,
    paused,
    until: paused ? new Date(t.until).toISOString() : null,
    by: t.by,
    timestamp: Math.floor(Date.now() / 1000),
  };
  const change = `${session.sessionId}:${t.chatId}:${paused}:${t.until}`;
  const eventId = `tko_${createHash('sha256').update(`${tenantId}\0${change}`).digest('hex').slice(0, 24)}`;
  await Promise.all([
    enqueueWebhook(tenantId, session.sessionId, 'chat.takeover', payload, { dedupKey: change }),
    publishFeedEvent(tenantId, session.sessionId, eventId, { ...payload }, feedClock()),
  ]);
}
