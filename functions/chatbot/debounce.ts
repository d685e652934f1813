import type { StoredMessage } from '#shared/messages/message';

export type PendingTurn =
  | { kind: 'superseded'; newerMessageId: string }
  | { kind: 'answer'; inbound: StoredMessage[] }
  | { kind: 'missing' }
  | { kind: 'answered since' };

/**
 * Burst debounce, decided from the chat's messages (newest first). A job is queued per inbound
 * message with the debounce delay; when it runs, only the newest inbound message of the chat answers,
 * for every inbound message since the session last wrote to the chat (its reply, or a message sent
 * through the API). An older message's job finds a newer one and does nothing: the newer one's job,
 * due later, answers the whole burst.
 */
export function pendingTurn(newestFirst: StoredMessage[], messageId: string): PendingTurn {
  const newest = newestFirst.find((m) => m.direction === 'inbound');
  if (!newest) return { kind: 'missing' };
  if (newest.messageId !== messageId) return { kind: 'superseded', newerMessageId: newest.messageId };
  const inbound: StoredMessage[] = [];
  for (const m of newestFirst) {
    if (m.direction === 'outbound') break;
    inbound.push(m);
  }
  // The session wrote to the chat after it (a reply, an API send): nothing is left to answer.
  if (!inbound.length) return { kind: 'answered since' };
  return { kind: 'answer', inbound: inbound.reverse() };
}
