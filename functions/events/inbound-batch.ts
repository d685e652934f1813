import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { indicesByKey, packInOrder } from '#shared/batching';
import {
  chatActivityOp,
  contactActivityOp,
  recordChatActivity,
  saveContacts,
} from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { needsAnalysis } from '#shared/media/job';
import type { StoredMessage } from '#shared/messages/message';
import { type InboundSave, messageItem, saveInbound } from '#shared/messages/repository';
import { count } from '#shared/metrics/metrics';
import { TRANSACTION_MAX_ITEMS } from '#shared/store/db';
import { dataTable } from '#shared/store/tables';
import { nudgeTenantFeed } from '#shared/stream/feed';
import { countDaily, dailyCountOp, dayOf } from '#shared/usage/daily';
import {
  inboundMessageWebhooks,
  prepareInboundWebhooks,
  replayedInboundWebhooks,
} from '#shared/webhooks/events';
import { deliverFirstAttempts } from '#shared/webhooks/first-attempts';
import type { WebhookJob } from '#shared/webhooks/job';
import { afterInboundStored, applyHostEvent, storedInbound } from './apply.ts';
import { contactActivityDue, contactActivityWritten } from './contact-activity.ts';

type Inbound = Extract<HostEvent, { kind: 'message.inbound' }>;

/**
 * Applies the events of ONE session in their order (the consumer groups a batch by session). A run
 * of consecutive inbound messages is applied together: the messages, their webhook deliveries,
 * their senders' contacts and their chats' activity in one transaction (visible to the stream all at
 * once, so in order), and the webhooks queued in the messages' order with one SendMessageBatch per
 * ten, so a burst costs two round trips per run instead of a few per message. Every other event applies on its own, between the runs, as
 * `applyHostEvent` does it. Answers, per event, whether it was applied.
 */
export async function applySessionEvents(events: HostEvent[]): Promise<boolean[]> {
  const ok: boolean[] = new Array(events.length).fill(false);
  let i = 0;
  while (i < events.length) {
    const e = events[i]!;
    if (e.kind !== 'message.inbound') {
      try {
        await applyHostEvent(e);
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
    const run = events.slice(i, j) as Inbound[];
    try {
      await applyInboundRun(run);
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

/**
 * Stores a run of inbound messages; counts those that were new (not stored by an earlier try) as
 * received as soon as they are stored.
 */
async function applyInboundRun(run: Inbound[]): Promise<void> {
  const { tenantId, sessionId } = run[0]!;
  // The usual case, a run seen for the first time: its messages, their webhook deliveries, their
  // senders' contacts and their chats' activity in one transaction (one request, visible all at
  // once, so in order to the stream), then their jobs.
  const prepared = await prepareRun(run);
  if (transactable(prepared) && (await dataTable.transact(prepared.ops))) {
    committed([prepared]);
    return afterRunStored(prepared);
  }
  const { stored } = prepared;
  // Something of the run is stored already (a retried event, or the placeholder of an
  // undecryptable message its real message now replaces), or a contact or chat has a later
  // message: one message after another, so that none becomes visible before the ones ahead of it;
  // deliveries as on the single path.
  const contactWrites = Promise.all(
    [...sendersOf(run)].map(([phone, s]) =>
      saveContacts(tenantId, sessionId, [{ phone, name: s.name }], s.at),
    ),
  );
  contactWrites.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const saved: InboundSave[] = [];
  for (const m of stored) saved.push(await saveInbound(m));
  // A real message that replaced its placeholder is news (feed, webhook, hooks) but not a new
  // message of its chat; a placeholder whose real message is stored already is nothing at all.
  const isNew = saved.map((s) => s === 'stored' || s === 'replaced');
  count('messagesReceived', saved.filter((s) => s === 'stored').length);
  if (isNew.some(Boolean)) nudgeTenantFeed(tenantId, published(stored.filter((_, n) => isNew[n])));
  await contactWrites;
  await Promise.all([
    ...[...receivedByDay(stored.filter((_, n) => saved[n] === 'stored'))].map(([at, n]) =>
      countDaily(tenantId, sessionId, { received: n }, at),
    ),
    // Chat activity of the messages this run stored: one write per chat.
    ...[...chatsOf(run.filter((_, n) => saved[n] === 'stored'))].map(([chatId, c]) =>
      recordChatActivity(tenantId, sessionId, chatId, c.at, c.name, c.count),
    ),
    // Queued for the messages stored now; those stored before may have had their first attempt
    // made, or have it under way, by the try that stored them: theirs are queued later, and find it.
    inboundMessageWebhooks(
      tenantId,
      sessionId,
      webhookMessages(run, (n) => isNew[n] === true),
    ),
    replayedInboundWebhooks(
      tenantId,
      sessionId,
      webhookMessages(run, (n) => saved[n] === 'present'),
    ),
    ...run.flatMap((e, n) =>
      saved[n] === 'superseded' ? [] : [afterInboundStored(tenantId, sessionId, e.message)],
    ),
  ]);
}

/**
 * The messages of a run (those at the indices `keep` takes) that get their `message.inbound` now:
 * media waiting for analysis gets its delivery when the media consumer publishes it.
 */
const webhookMessages = (run: Inbound[], keep: (n: number) => boolean) =>
  run.flatMap((e, n) => (keep(n) && !needsAnalysis(e.message) ? [e.message] : []));

/** The messages that join the tenant feed when stored (not those waiting for media analysis). */
const published = (stored: StoredMessage[]) => stored.filter((m) => m.analysisState !== 'pending');

/** The newest name and time per sender of a run: one contact write each. */
function sendersOf(run: Inbound[]): Map<string, { name?: string; at: number }> {
  const senders = new Map<string, { name?: string; at: number }>();
  for (const e of run) {
    const m = e.message;
    if (!m.senderPhone) continue;
    const prev = senders.get(m.senderPhone);
    senders.set(m.senderPhone, {
      name: m.senderName ?? prev?.name,
      at: Math.max(prev?.at ?? 0, m.timestampMs),
    });
  }
  return senders;
}

/** Per chat of a run: its newest time, the newest sender name (not for groups) and the count. */
function chatsOf(run: Inbound[]): Map<string, { at: number; name?: string; count: number }> {
  const chats = new Map<string, { at: number; name?: string; count: number }>();
  for (const e of run) {
    const m = e.message;
    const prev = chats.get(m.chatId);
    chats.set(m.chatId, {
      at: Math.max(prev?.at ?? 0, m.timestampMs),
      name: (m.groupId ? undefined : m.senderName) ?? prev?.name,
      count: (prev?.count ?? 0) + 1,
    });
  }
  return chats;
}

/** Runs whose transaction went through: their messages count as received, their contacts as written. */
function committed(runs: PreparedRun[]): void {
  count(
    'messagesReceived',
    runs.reduce((n, p) => n + p.run.length, 0),
  );
  for (const { run, contacts } of runs) {
    const { tenantId, sessionId } = run[0]!;
    for (const c of contacts) contactActivityWritten(tenantId, sessionId, c);
  }
}

/** Messages per UTC day they were sent: a time of that day → how many. */
function receivedByDay(messages: StoredMessage[]): Map<number, number> {
  const days = new Map<string, { at: number; n: number }>();
  for (const m of messages) {
    const d = days.get(dayOf(m.timestampMs)) ?? { at: m.timestampMs, n: 0 };
    d.n++;
    days.set(dayOf(m.timestampMs), d);
  }
  return new Map([...days.values()].map((d) => [d.at, d.n]));
}

/** A run's writes, built but not made: what one transaction stores, and the jobs to queue after. */
interface PreparedRun {
  run: Inbound[];
  stored: StoredMessage[];
  ops: TransactWriteItem[];
  jobs: WebhookJob[];
  /** The senders whose contacts the transaction writes (`contact-activity.ts`: not every message). */
  contacts: Array<{ phone: string; name?: string; at: number }>;
}

/**
 * The run's messages and their `message.inbound` deliveries (each only if absent) with its
 * contacts' and chats' activity (each only if not later already), as transaction items.
 */
async function prepareRun(run: Inbound[]): Promise<PreparedRun> {
  const { tenantId, sessionId } = run[0]!;
  const stored = run.map(storedInbound);
  // Media waiting for analysis gets its delivery when the media consumer publishes it.
  const deliveries = await prepareInboundWebhooks(
    tenantId,
    sessionId,
    webhookMessages(run, () => true),
  );
  const contacts = [...sendersOf(run)]
    .map(([phone, s]) => ({ phone, ...s }))
    .filter((c) => contactActivityDue(tenantId, sessionId, c));
  const ops = [
    ...stored.map((m) => dataTable.putIfAbsentOp(messageItem(m))),
    ...deliveries.items.map((d) => dataTable.putIfAbsentOp(d)),
    ...contacts.map((c) => contactActivityOp(tenantId, sessionId, c, c.at)),
    ...[...chatsOf(run)].map(([chatId, c]) =>
      chatActivityOp(tenantId, sessionId, chatId, c.at, c.name, c.count),
    ),
    // Usage over time: counted in the transaction that stores the messages, so exactly once.
    ...[...receivedByDay(stored)].flatMap(
      ([at, n]) => dailyCountOp(tenantId, sessionId, { received: n }, at) ?? [],
    ),
  ];
  return { run, stored, ops, jobs: deliveries.jobs, contacts };
}

/**
 * Whether a run can be stored as one transaction: it fits, and names each message once (a
 * transaction may not write one item twice; a run holds the placeholder of an undecryptable
 * message and then its real message when the sender sent it again at once).
 */
function transactable(p: PreparedRun): boolean {
  if (p.ops.length > TRANSACTION_MAX_ITEMS) return false;
  return new Set(p.run.map((e) => e.message.id)).size === p.run.length;
}

/** Once a run's transaction went through: stream, first webhook attempts in order, per-message hooks. */
async function afterRunStored(p: PreparedRun): Promise<void> {
  await Promise.all([deliverFirstAttempts(p.jobs), afterRunsStored([p])]);
}

/** Stream and per-message hooks of runs just stored (their webhook jobs are the caller's). */
async function afterRunsStored(runs: PreparedRun[]): Promise<void> {
  await Promise.all(
    runs.map(({ run, stored }) => {
      const { tenantId, sessionId } = run[0]!;
      // The stream learns of the messages now, whatever the work below takes (media waiting for
      // its analysis joins the feed when the media consumer publishes it).
      nudgeTenantFeed(tenantId, published(stored));
      return Promise.all(run.map((e) => afterInboundStored(tenantId, sessionId, e.message)));
    }),
  );
}

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
    const prepared = await Promise.all(runs.map((idx) => prepareRun(idx.map((i) => events[i]) as Inbound[])));
    const stored = await storeTogether(prepared);
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
 * Stores prepared runs of different sessions in as few transactions as they fit in, side by side;
 * answers per run whether it is stored and its follow-up work done (false: the caller takes it the
 * per-session way, which finds what is stored already).
 */
async function storeTogether(prepared: PreparedRun[]): Promise<boolean[]> {
  // A run too large for one transaction, or that names a message twice, is left to the per-session way.
  const fitting = prepared.flatMap((p, r) => (transactable(p) ? [r] : []));
  const packs = packInOrder(fitting, (r) => [prepared[r]!.ops.length], [TRANSACTION_MAX_ITEMS]);
  const ok: boolean[] = prepared.map(() => false);
  await Promise.all(
    packs.map(async (pack) => {
      const written = await dataTable
        .transact(pack.flatMap((r) => prepared[r]!.ops))
        .catch((err: unknown) => {
          logger.warn(
            { err, runs: pack.length },
            'shared inbound transaction failed; storing session by session',
          );
          return false;
        });
      if (!written) return;
      const runs = pack.map((r) => prepared[r]!);
      committed(runs);
      try {
        // Every run's first webhook attempts made together (each session's in its order).
        await Promise.all([deliverFirstAttempts(runs.flatMap((p) => p.jobs)), afterRunsStored(runs)]);
      } catch (err) {
        // Stored, but jobs or hooks failed: the per-session way queues what is missing.
        logger.warn(
          { err, runs: runs.length },
          'inbound runs stored, follow-up failed; retrying them session by session',
        );
        return;
      }
      for (const r of pack) ok[r] = true;
    }),
  );
  return ok;
}
