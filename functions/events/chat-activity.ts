import { LRUCache } from 'lru-cache';
import { CONTACT_ACTIVITY_STEP_MS } from './contact-activity.ts';
import { Waiting } from './waiting.ts';

/**
 * How often a chat's activity (`lastMsgAt`, name, `inboundCount`) is written: as a contact's, when
 * this process has not written the chat with the same name within a minute of message time; the
 * messages stored meanwhile are counted here and added with that write. A busy chat so costs one
 * write a minute instead of one per message (docs/benchmarks.md, "Write units"). The price: the
 * chat item's `lastMsgAt` is kept to within a minute, its count lags by at most a minute's messages,
 * and a process that stops loses the counts it had not written yet (the count is a summary for lead
 * lists and exports; the messages themselves are stored one by one).
 */
const pending = new LRUCache<string, { name?: string; at: number; count: number; writtenAt?: number }>({
  max: 50_000,
});
const keyOf = (tenantId: string, sessionId: string, chatId: string) =>
  `${tenantId}\u0000${sessionId}\u0000${chatId}`;
/** Chats with counts noted and not written: a chat gone quiet gets them written a minute later all the same. */
const waiting = new Waiting();

export interface ChatActivity {
  chatId: string;
  name?: string;
  /** The newest message time. */
  at: number;
  /** Messages stored in the chat. */
  count: number;
}

/**
 * Notes newly stored messages of a chat; answers the write to make now (with every count noted and
 * not written yet), or undefined when it waits.
 */
export function noteChatActivity(
  tenantId: string,
  sessionId: string,
  c: ChatActivity,
): ChatActivity | undefined {
  const key = keyOf(tenantId, sessionId, c.chatId);
  const last = pending.get(key);
  // The newest message's name is the chat's: an older message noted late (runs stored side by side)
  // neither replaces it nor makes a write due.
  const newer = c.at >= (last?.at ?? 0);
  const merged = {
    name: newer ? (c.name ?? last?.name) : (last?.name ?? c.name),
    at: Math.max(c.at, last?.at ?? 0),
    count: c.count + (last?.count ?? 0),
    writtenAt: last?.writtenAt,
  };
  const due =
    merged.writtenAt === undefined ||
    (newer && c.name !== undefined && c.name !== last?.name) ||
    merged.at - merged.writtenAt >= CONTACT_ACTIVITY_STEP_MS;
  if (!due) {
    pending.set(key, merged);
    waiting.note(key);
    return undefined;
  }
  // Taken: written now. A write that fails gives its count back (`chatActivityNotWritten`).
  pending.set(key, { name: merged.name, at: merged.at, count: 0, writtenAt: merged.at });
  waiting.done(key);
  return { chatId: c.chatId, name: merged.name, at: merged.at, count: merged.count };
}

/** The write `noteChatActivity` answered failed: its count waits for the next one. */
export function chatActivityNotWritten(tenantId: string, sessionId: string, c: ChatActivity): void {
  const key = keyOf(tenantId, sessionId, c.chatId);
  const last = pending.get(key);
  pending.set(key, { name: last?.name ?? c.name, at: last?.at ?? c.at, count: (last?.count ?? 0) + c.count });
  waiting.note(key);
}

/** A chat's activity to write, with its tenant and session. */
export interface ChatActivityOf {
  tenantId: string;
  sessionId: string;
  activity: ChatActivity;
}

/**
 * The writes of counts that waited a minute of wall-clock time for a next message that did not
 * come (a chat gone quiet), taken as `noteChatActivity`'s are: a failed one goes back through
 * `chatActivityNotWritten`.
 */
export function quietChatActivity(now = Date.now()): ChatActivityOf[] {
  const quiet: ChatActivityOf[] = [];
  for (const key of waiting.takeOlder(now, CONTACT_ACTIVITY_STEP_MS)) {
    const last = pending.get(key);
    const [tenantId, sessionId, chatId] = key.split('\u0000');
    if (!last?.count || !tenantId || !sessionId || !chatId) continue;
    pending.set(key, { name: last.name, at: last.at, count: 0, writtenAt: last.writtenAt });
    quiet.push({
      tenantId,
      sessionId,
      activity: { chatId, name: last.name, at: last.at, count: last.count },
    });
  }
  return quiet;
}

/** Whether counts wait to be written (a later `quietChatActivity` has work). */
export const chatActivityWaiting = (): boolean => waiting.any;
