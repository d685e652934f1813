import { LRUCache } from 'lru-cache';
import { dayOf } from '#shared/usage/daily';
import { CONTACT_ACTIVITY_STEP_MS } from './contact-activity.ts';
import { Waiting } from './waiting.ts';

/**
 * How often a session's `received` counter of the day (usage over time, shared/usage/daily.ts) is
 * written: as a chat's activity (chat-activity.ts), when this process has not written that
 * session's day within a minute of message time; the messages stored meanwhile are counted here and
 * added with that write. A busy session so costs one write a minute, not one per message (the
 * 5-write-unit budget, docs/benchmarks.md, "Write units"). The price: the day's `received` lags by
 * at most a minute's messages, and a process that stops loses the counts it had not written yet
 * (a usage chart, not a bill: the quota counts sends exactly).
 */
const pending = new LRUCache<string, { count: number; writtenAt?: number }>({ max: 50_000 });
const keyOf = (tenantId: string, sessionId: string, atMs: number) =>
  `${tenantId}\u0000${sessionId}\u0000${dayOf(atMs)}`;
/** Days with counts noted and not written: a session gone quiet gets them written a minute later. */
const waiting = new Waiting();

/** Messages received on one UTC day: the newest time and how many. */
export interface DayReceived {
  at: number;
  count: number;
}

/** Notes newly stored messages of one day; answers the addition to write now, or undefined when it waits. */
export function noteReceived(tenantId: string, sessionId: string, r: DayReceived): DayReceived | undefined {
  const key = keyOf(tenantId, sessionId, r.at);
  const last = pending.get(key);
  const count = r.count + (last?.count ?? 0);
  const due = last?.writtenAt === undefined || r.at - last.writtenAt >= CONTACT_ACTIVITY_STEP_MS;
  if (!due) {
    pending.set(key, { count, writtenAt: last.writtenAt });
    waiting.note(key);
    return undefined;
  }
  // Taken: written now. A write that fails gives its count back (`receivedNotWritten`).
  pending.set(key, { count: 0, writtenAt: r.at });
  waiting.done(key);
  return { at: r.at, count };
}

/** The write `noteReceived` answered failed: its count waits for the next one. */
export function receivedNotWritten(tenantId: string, sessionId: string, r: DayReceived): void {
  const key = keyOf(tenantId, sessionId, r.at);
  const last = pending.get(key);
  pending.set(key, { count: (last?.count ?? 0) + r.count, writtenAt: last?.writtenAt });
  waiting.note(key);
}

/** A day's received count to add, with its tenant and session. */
export interface DayReceivedOf {
  tenantId: string;
  sessionId: string;
  received: DayReceived;
}

/**
 * The additions that waited a minute of wall-clock time for a next message that did not come (a
 * session gone quiet), taken as `noteReceived`'s are: a failed one goes back through
 * `receivedNotWritten`.
 */
export function quietReceived(now = Date.now()): DayReceivedOf[] {
  const quiet: DayReceivedOf[] = [];
  for (const key of waiting.takeOlder(now, CONTACT_ACTIVITY_STEP_MS)) {
    const last = pending.get(key);
    const [tenantId, sessionId] = key.split('\u0000');
    if (!last?.count || last.writtenAt === undefined || !tenantId || !sessionId) continue;
    pending.set(key, { count: 0, writtenAt: last.writtenAt });
    quiet.push({ tenantId, sessionId, received: { at: last.writtenAt, count: last.count } });
  }
  return quiet;
}

/** Whether counts wait to be written (a later `quietReceived` has work). */
export const receivedWaiting = (): boolean => waiting.any;
