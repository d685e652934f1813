import { indicesByKey } from '#shared/batching';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { must } from '#shared/must';
import { sessionLane } from '#shared/queue/lane-keys';
import { applyEvent } from './apply-event.ts';
import {
  afterRunsStored,
  type InboundEvent,
  type StoredRun,
  storeInboundRun,
  storeRun,
} from './inbound-messages.ts';

/**
 * Applies a batch of events of any sessions: each session's events in their order, sessions side by
 * side. The leading runs of inbound messages of every session (the usual batch under load, where
 * each session has one or two messages in it) are stored side by side and their first webhook
 * attempts made together, within one budget; a session whose run fails, and everything after its
 * leading run, goes the per-session way (`applySessionEvents`). Answers, per event, whether it was
 * applied.
 */
export async function applyEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  const at = (i: number) => must(events[i], `event ${i} of the batch`);
  const groups = indicesByKey(events, sessionLane);
  const leading = groups.map((idx) => {
    const n = idx.findIndex((i) => at(i).kind !== 'message.inbound');
    return idx.slice(0, n < 0 ? idx.length : n);
  });
  const runs = leading.filter((l) => l.length);
  const stored = await Promise.all(
    runs.map((idx) =>
      storeRun(idx.map((i) => events[i]) as InboundEvent[]).catch((err: unknown) => {
        logger.warn({ err, messages: idx.length }, 'inbound run not stored; retrying it on its own');
        return undefined;
      }),
    ),
  );
  const done = stored.filter((s): s is StoredRun => s !== undefined);
  const followed = await afterRunsStored(done).then(
    () => true,
    (err: unknown) => {
      // Stored, but jobs or hooks failed: the per-session way queues what is missing.
      logger.warn(
        { err, runs: done.length },
        'inbound runs stored, follow-up failed; retrying them one by one',
      );
      return false;
    },
  );
  if (followed) {
    runs.forEach((idx, r) => {
      if (stored[r]) for (const i of idx) ok[i] = true;
    });
  }
  await Promise.all(
    groups.map(async (idx) => {
      // What was not applied above goes the per-session way, in order.
      const todo = idx.filter((i) => !ok[i]);
      if (!todo.length) return;
      const applied = await applySessionEvents(todo.map(at));
      todo.forEach((i, n) => {
        ok[i] = applied[n] === true;
      });
    }),
  );
  return ok;
}

/**
 * Applies the events of ONE session in their order (the consumer groups a batch by session). A run
 * of consecutive inbound messages is stored together (inbound-messages.ts: the messages one after
 * another, then their first webhook attempts in their order); every other event applies on its
 * own, between the runs, as `applyEvent` does it. Answers, per event, whether it was applied.
 */
export async function applySessionEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  let i = 0;
  while (i < events.length) {
    const e = must(events[i], `event ${i} of the batch`);
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
    while (j < events.length && events[j]?.kind === 'message.inbound') j++;
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
