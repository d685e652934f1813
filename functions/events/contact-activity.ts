import { LRUCache } from 'lru-cache';

/**
 * How often a contact's activity is written. Every inbound message updates its chat (time, count),
 * but its sender's contact item only when this process has not written that contact with the same
 * name within the last `CONTACT_ACTIVITY_STEP_MS` of message time: a contact's `lastMsgAt` is kept
 * to within a minute, and a busy chat no longer costs a second write per message. A process that
 * has not seen the contact yet (a new Lambda container, a restart) simply writes it.
 */
export const CONTACT_ACTIVITY_STEP_MS = 60_000;
/** The senders remembered, least recently used forgotten first. */
const written = new LRUCache<string, { name?: string; at: number }>({ max: 50_000 });
const keyOf = (tenantId: string, sessionId: string, phone: string) =>
  `${tenantId}\u0000${sessionId}\u0000${phone}`;

/** Whether a message at `at` from this sender needs its contact written. */
export function contactActivityDue(
  tenantId: string,
  sessionId: string,
  sender: { phone: string; name?: string; at: number },
): boolean {
  const last = written.get(keyOf(tenantId, sessionId, sender.phone));
  if (!last) return true;
  // An older message noted late (runs stored side by side) does not bring back its older name.
  if (sender.name !== undefined && sender.name !== last.name && sender.at >= last.at) return true;
  return sender.at - last.at >= CONTACT_ACTIVITY_STEP_MS;
}

/** The contact was written (its transaction committed) with this name and time. */
export function contactActivityWritten(
  tenantId: string,
  sessionId: string,
  sender: { phone: string; name?: string; at: number },
): void {
  const key = keyOf(tenantId, sessionId, sender.phone);
  const last = written.get(key);
  const newer = sender.at >= (last?.at ?? 0);
  written.set(key, {
    name: newer ? (sender.name ?? last?.name) : (last?.name ?? sender.name),
    at: Math.max(sender.at, last?.at ?? 0),
  });
}
