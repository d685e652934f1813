import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { packInOrder } from '#shared/batching';
import { enqueueChatbotTurn } from '#shared/chatbot/turn-job';
import {
  chatActivityOp,
  contactActivityOp,
  recordChatActivity,
  saveContacts,
} from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { enqueueMediaJob, needsAnalysis } from '#shared/media/job';
import type { InboundMessage } from '#shared/messages/content';
import type { StoredMessage } from '#shared/messages/message';
import { messageItem, saveMessage } from '#shared/messages/repository';
import { count } from '#shared/metrics/metrics';
import { TRANSACTION_MAX_ITEMS } from '#shared/store/db';
import { feedClock } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { nudgeTenantFeed } from '#shared/stream/feed';
import {
  inboundMessageWebhooks,
  prepareInboundWebhooks,
  replayedInboundWebhooks,
} from '#shared/webhooks/events';
import { deliverFirstAttempts } from '#shared/webhooks/first-attempts';
import type { WebhookJob } from '#shared/webhooks/job';
import { contactActivityDue, contactActivityWritten } from './contact-activity.ts';

/** An inbound message event. */
export type InboundEvent = Extract<HostEvent, { kind: 'message.inbound' }>;

/**
 * THE place for work that follows an inbound message once it is stored: one call per message, on
 * the transaction path and the step-by-step path alike, also for a retried event,
 * so each hook must be idempotent or deduplicate. Hooks run side by side with the webhook and need
 * no order among a session's messages.
 */
export function afterInboundStored(tenantId: string, sessionId: string, m: InboundMessage): Promise<unknown> {
  // Media to analyse goes to the media consumer, which publishes it (feed, webhook, chatbot) after.
  if (needsAnalysis(m)) return enqueueMediaJob({ tenantId, sessionId, messageId: m.id });
  return Promise.all([enqueueChatbotTurn(tenantId, sessionId, m)]);
}

/** The stored form of an inbound message event. */
export function storedInbound(e: Extract<HostEvent, { kind: 'message.inbound' }>): StoredMessage {
  const m = e.message;
  return {
    tenantId: e.tenantId,
    sessionId: e.sessionId,
    messageId: m.id,
    direction: 'inbound',
    chatId: m.chatId,
    senderPhone: m.senderPhone,
    senderLid: m.senderLid,
    senderName: m.senderName,
    groupId: m.groupId,
    kind: m.kind,
    text: m.text,
    caption: m.caption,
    fileName: m.fileName,
    mimetype: m.mimetype,
    mediaKey: m.mediaKey,
    location: m.location,
    contacts: m.contacts,
    poll: m.poll,
    backlog: m.backlog,
    mediaMissing: m.mediaMissing,
    ...(needsAnalysis(m) ? { analysisState: 'pending' as const } : {}),
    status: 'delivered',
    timestampMs: m.timestampMs,
    // Joins the tenant feed now, however old the message: the stream's pollers look back a short
    // window from the newest entry (shared/stream/feed.ts).
    feedAtMs: feedClock(),
    statusAt: e.at,
  };
}

/**
 * Stores a run of inbound messages; counts those that were new (not stored by an earlier try) as
 * received as soon as they are stored.
 */
export async function storeInboundRun(run: InboundEvent[]): Promise<void> {
  const { tenantId, sessionId } = run[0]!;
  // The usual case, a run seen for the first time: its messages, their webhook deliveries, their
  // senders' contacts and their chats' activity in one transaction (one request, visible all at
  // once, so in order to the stream), then their jobs.
  const prepared = await prepareRun(run);
  if (prepared.ops.length <= TRANSACTION_MAX_ITEMS && (await dataTable.transact(prepared.ops))) {
    committed([prepared]);
    return afterRunStored(prepared);
  }
  const { stored } = prepared;
  // Something of the run is stored already (a retried event), or a contact or chat has a later
  // message: one message after another, so that none becomes visible before the ones ahead of it;
  // deliveries as on the single path.
  const contactWrites = Promise.all(
    [...sendersOf(run)].map(([phone, s]) =>
      saveContacts(tenantId, sessionId, [{ phone, name: s.name }], s.at),
    ),
  );
  contactWrites.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const isNew: boolean[] = [];
  for (const m of stored) isNew.push(await saveMessage(m));
  count('messagesReceived', isNew.filter(Boolean).length);
  if (isNew.some(Boolean)) nudgeTenantFeed(tenantId, published(stored.filter((_, n) => isNew[n])));
  await contactWrites;
  await Promise.all([
    // Chat activity of the messages this run stored: one write per chat.
    ...[...chatsOf(run.filter((_, n) => isNew[n]))].map(([chatId, c]) =>
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
      webhookMessages(run, (n) => !isNew[n]),
    ),
    ...run.map((e) => afterInboundStored(tenantId, sessionId, e.message)),
  ]);
}

/**
 * The messages of a run (those at the indices `keep` takes) that get their `message.inbound` now:
 * media waiting for analysis gets its delivery when the media consumer publishes it.
 */
const webhookMessages = (run: InboundEvent[], keep: (n: number) => boolean) =>
  run.flatMap((e, n) => (keep(n) && !needsAnalysis(e.message) ? [e.message] : []));

/** The messages that join the tenant feed when stored (not those waiting for media analysis). */
const published = (stored: StoredMessage[]) => stored.filter((m) => m.analysisState !== 'pending');

/** The newest name and time per sender of a run: one contact write each. */
function sendersOf(run: InboundEvent[]): Map<string, { name?: string; at: number }> {
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
function chatsOf(run: InboundEvent[]): Map<string, { at: number; name?: string; count: number }> {
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

/** A run's writes, built but not made: what one transaction stores, and the jobs to queue after. */
export interface PreparedRun {
  run: InboundEvent[];
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
export async function prepareRun(run: InboundEvent[]): Promise<PreparedRun> {
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
  ];
  return { run, stored, ops, jobs: deliveries.jobs, contacts };
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
 * Stores prepared runs of different sessions in as few transactions as they fit in, side by side;
 * answers per run whether it is stored and its follow-up work done (false: the caller takes it the
 * per-session way, which finds what is stored already).
 */
export async function storeRunsTogether(prepared: PreparedRun[]): Promise<boolean[]> {
  // A run too large for one transaction is left to the per-session way.
  const fitting = prepared.flatMap((p, r) => (p.ops.length <= TRANSACTION_MAX_ITEMS ? [r] : []));
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
