import { enqueueChatbotTurn } from '#shared/chatbot/turn-job';
import { recordChatActivity, saveContacts } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { enqueueMediaJob, needsAnalysis } from '#shared/media/job';
import type { InboundMessage } from '#shared/messages/content';
import type { StoredMessage } from '#shared/messages/message';
import { type InboundSave, saveInbound } from '#shared/messages/repository';
import { count } from '#shared/metrics/metrics';
import { must } from '#shared/must';
import { feedClock } from '#shared/store/keys';
import { nudgeTenantFeed } from '#shared/stream/feed';
import { countDaily, dayOf } from '#shared/usage/daily';
import { inboundFirstAttempts, replayedInboundWebhooks } from '#shared/webhooks/events';
import { deliverFirstAttempts } from '#shared/webhooks/first-attempts';
import type { WebhookJob } from '#shared/webhooks/job';
import { type ChatActivity, chatActivityNotWritten, noteChatActivity } from './chat-activity.ts';
import { contactActivityDue, contactActivityWritten } from './contact-activity.ts';
import { type DayReceived, noteReceived, receivedNotWritten } from './daily-received.ts';
import { scheduleQuietCounts, writeQuietCounts } from './quiet-counts.ts';

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
export function storedInbound(e: InboundEvent): StoredMessage {
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
    listReply: m.listReply,
    backlog: m.backlog,
    mediaMissing: m.mediaMissing,
    ...(needsAnalysis(m) ? { analysisState: 'pending' as const } : {}),
    status: 'delivered',
    timestampMs: m.timestampMs,
    // Joins the tenant feed now, however old the message: the stream's pollers look back a short
    // window from the newest entry (shared/stream/tenant-poller.ts).
    feedAtMs: feedClock(),
    statusAt: e.at,
  };
}

/**
 * What storing a run of inbound messages costs, per message (the usual case: text, a webhook
 * whose first attempt succeeds, a chat and sender seen within the minute): one conditional put of
 * the message (the item and its two index entries: 3 write units under 1 KB) and one of its
 * delivery record, made once with the first attempt's outcome (2); the sender's contact and the
 * chat's activity once a minute (contact-activity.ts, chat-activity.ts). No transaction: it would
 * cost each item twice. docs/benchmarks.md, "Write units". Under `npm start` the puts that the runs
 * stored side by side make in one turn share one DynamoDB Local commit (shared/store/group-commit.ts).
 */

/** A run of one session's inbound messages, stored: what follows is its first webhook attempts and hooks. */
export interface StoredRun {
  tenantId: string;
  sessionId: string;
  /** The run's messages that have hooks to run (all but placeholders whose real message is stored). */
  run: InboundEvent[];
  /** The first `message.inbound` attempts of the messages this run stored, in their order. */
  jobs: WebhookJob[];
}

/**
 * Stores a run of one session's inbound messages, one after another (so that none becomes visible
 * to the stream before the ones ahead of it), and what comes with them: the senders' contacts and
 * the chats' activity when due, the first attempts of the new messages' webhooks prepared, and the
 * webhooks of messages stored by an earlier try (an SQS redelivery) queued. Counts the new messages
 * as received. Idempotent: a retried run stores nothing twice.
 */
export async function storeRun(run: InboundEvent[]): Promise<StoredRun> {
  const { tenantId, sessionId } = must(run[0], 'a first message of the run');
  const stored = run.map(storedInbound);
  const contacts = [...sendersOf(run)]
    .map(([phone, s]) => ({ phone, ...s }))
    .filter((c) => contactActivityDue(tenantId, sessionId, c));
  const contactWrites = Promise.all(
    contacts.map(async (c) => {
      await saveContacts(tenantId, sessionId, [{ phone: c.phone, name: c.name }], c.at);
      contactActivityWritten(tenantId, sessionId, c);
    }),
  );
  contactWrites.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const saved: InboundSave[] = [];
  for (const m of stored) saved.push(await saveInbound(m));
  // A real message that replaced its placeholder (an undecryptable message sent again) is news
  // (feed, webhook, hooks) but not a new message of its chat; a placeholder whose real message is
  // stored already is nothing at all.
  const isNew = saved.map((v) => v === 'stored' || v === 'replaced');
  count('messagesReceived', saved.filter((v) => v === 'stored').length);
  // The stream reads the store: it learns of the messages now, whatever the work below takes.
  if (isNew.some(Boolean)) nudgeTenantFeed(tenantId, published(stored.filter((_, n) => isNew[n])));
  const [jobs] = await Promise.all([
    // Media waiting for analysis gets its delivery when the media consumer publishes it.
    inboundFirstAttempts(
      tenantId,
      sessionId,
      webhookMessages(run, (n) => isNew[n] === true),
    ),
    // Stored by an earlier try, which may have made their first attempts or have them under way:
    // theirs are queued later, and find them.
    replayedInboundWebhooks(
      tenantId,
      sessionId,
      webhookMessages(run, (n) => saved[n] === 'present'),
    ),
    writeChatActivity(
      tenantId,
      sessionId,
      run.filter((_, n) => saved[n] === 'stored'),
    ),
    writeDailyReceived(
      tenantId,
      sessionId,
      run.filter((_, n) => saved[n] === 'stored'),
    ),
    contactWrites,
    // Other chats' and sessions' counts that waited a minute for a next message (quiet-counts.ts).
    writeQuietCounts(),
  ]);
  scheduleQuietCounts();
  return { tenantId, sessionId, run: run.filter((_, n) => saved[n] !== 'superseded'), jobs };
}

/** The day's `received` counter of messages just stored, when due (daily-received.ts). */
async function writeDailyReceived(tenantId: string, sessionId: string, fresh: InboundEvent[]) {
  const days = new Map<string, DayReceived>();
  for (const e of fresh) {
    const at = e.message.timestampMs;
    const day = dayOf(at);
    const d = days.get(day);
    days.set(day, { at: Math.max(at, d?.at ?? 0), count: (d?.count ?? 0) + 1 });
  }
  const due = [...days.values()]
    .map((d) => noteReceived(tenantId, sessionId, d))
    .filter((d): d is DayReceived => d !== undefined);
  await Promise.all(
    due.map((d) =>
      countDaily(tenantId, sessionId, { received: d.count }, d.at).catch((err: unknown) => {
        receivedNotWritten(tenantId, sessionId, d);
        throw err;
      }),
    ),
  );
}

/** The chats' activity of messages just stored, each chat's when due (chat-activity.ts). */
async function writeChatActivity(tenantId: string, sessionId: string, fresh: InboundEvent[]) {
  const due = [...chatsOf(fresh)]
    .map(([chatId, c]) => noteChatActivity(tenantId, sessionId, { chatId, ...c }))
    .filter((c): c is ChatActivity => c !== undefined);
  await Promise.all(
    due.map((c) =>
      recordChatActivity(tenantId, sessionId, c.chatId, c.at, c.name, c.count).catch((err: unknown) => {
        chatActivityNotWritten(tenantId, sessionId, c);
        throw err;
      }),
    ),
  );
}

/**
 * What follows stored runs: their first webhook attempts made together (each session's in its
 * order, sessions side by side, within one budget: shared/webhooks/first-attempts.ts) and each
 * message's hooks.
 */
export async function afterRunsStored(runs: StoredRun[]): Promise<void> {
  await Promise.all([
    deliverFirstAttempts(runs.flatMap((r) => r.jobs)),
    ...runs.flatMap((r) => r.run.map((e) => afterInboundStored(r.tenantId, r.sessionId, e.message))),
  ]);
}

/** Stores one run and does what follows it. */
export async function storeInboundRun(run: InboundEvent[]): Promise<void> {
  await afterRunsStored([await storeRun(run)]);
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
