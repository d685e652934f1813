import { indicesByKey } from '#shared/batching';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { applyEvent } from './apply-event.ts';
import { type InboundEvent, prepareRun, storeInboundRun, storeRunsTogether } from './inbound-messages.ts';

/**
 * Applies a batch of events of any sessions: each session's events in their order, sessions side by
 * side. The leading runs of inbound messages of several sessions (the usual batch under load, where
 * each session has one or two messages in it) are stored together, as few transactions of at most
 * 100 items as they fit in, instead of one per session; a session whose transaction does not go
 * through, and everything after its leading run, goes the per-session way (`applySessionEvents`).
 * Answers, per event, whether it was applied.
 */
export async function applyEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  const groups = indicesByKey(events, (e) => `${e.tenantId}:${e.sessionId}`);
  const leading = groups.map((idx) => {
    const n = idx.findIndex((i) => events[i]!.kind !== 'message.inbound');
    return idx.slice(0, n < 0 ? idx.length : n);
  });
  const rest = groups.map((idx, g) => idx.slice(leading[g]!.length));
  if (leading.filter((l) => l.length).length > 1) {
    const runs = leading.filter((l) => l.length);
    const prepared = await Promise.all(
      runs.map((idx) => prepareRun(idx.map((i) => events[i]) as InboundEvent[])),
    );
    const stored = await storeRunsTogether(prepared);
    runs.forEach((idx, r) => {
      if (stored[r]) for (const i of idx) ok[i] = true;
    });
  }
  await Promise.all(
    groups.map(async (_, g) => {
      // What the shared transactions did not store goes the per-session way, in order.
      const todo = [...leading[g]!.filter((i) => !ok[i]), ...rest[g]!];
      if (!todo.length) return;
      const done = await applySessionEvents(todo.map((i) => events[i]!));
      todo.forEach((i, n) => {
        ok[i] = done[n] === true;
      });
    }),
  );
  return ok;
}

/**
 * Applies the events of ONE session in their order (the consumer groups a batch by session). A run
 * of consecutive inbound messages is applied together: the messages, their webhook deliveries,
 * their senders' contacts and their chats' activity in one transaction (visible to the stream all at
 * once, so in order), and the webhooks queued in the messages' order with one SendMessageBatch per
 * ten, so a burst costs two round trips per run instead of a few per message. Every other event applies on its own, between the runs, as
 * `applyEvent` does it. Answers, per event, whether it was applied.
 */
export async function applySessionEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  let i = 0;
  while (i < events.length) {
    const e = events[i]!;
    if (e.kind !== 'message.inbound') {
      try {
        await applyEvent(e);
        ok[i] = true;
      } catch (err) {
        // Reported failed: SQS delivers it again. The events after it still apply (as before).
        logger.error({ err, kind: e.kind, sessionId: e.sessionId }, 'event failed; SQS will retry it');
      }
      i++;
      continue;
    }
    let j = i;
    while (j < events.length && events[j]!.kind === 'message.inbound') j++;
    const run = events.slice(i, j) as InboundEvent[];
    try {
      await storeInboundRun(run);
      ok.fill(true, i, j);
    } catch (err) {
      logger.error(
        { err, sessionId: e.sessionId, messages: run.length },
        'inbound run failed; SQS will retry it',
      );
      // The whole run again: every step is idempotent (conditional message write, delivery ids
      // derived from message ids, chat counts only for messages this run stored).
    }
    i = j;
  }
  return ok;
}
