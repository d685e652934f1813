import { chatbotMayAct } from '#shared/chatbot/gate';
import { extendTakeover } from '#shared/chatbot/takeover';
import { enqueueChatbotTurn } from '#shared/chatbot/turn-job';
import { recordCommandResult } from '#shared/commands/results';
import { recordChatActivity, saveContacts, saveGroup, saveLidMapping } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { enqueueMediaJob, needsAnalysis } from '#shared/media/job';
import { applyMessageChange } from '#shared/messages/changes';
import type { InboundMessage } from '#shared/messages/content';
import type { StoredMessage } from '#shared/messages/message';
import { advanceStatus, getMessage, saveInbound, saveMessage } from '#shared/messages/repository';
import { type Counter, count } from '#shared/metrics/metrics';
import { addAlias, applySessionState, getSession } from '#shared/sessions/repository';
import { feedClock } from '#shared/store/keys';
import { nudgeTenantFeed } from '#shared/stream/feed';
import { publishRestrictionChange } from '#shared/stream/restriction-event';
import {
  commandResultWebhook,
  forgetSession,
  inboundMessageWebhook,
  messageStatusWebhook,
  sessionStatusWebhook,
} from '#shared/webhooks/events';
import { applyCall } from './calls.ts';
import { applyHistory } from './history.ts';

/**
 * THE place for work that follows an inbound message once it is stored: one call per message, on
 * the single-event path here and the batch path (inbound-batch.ts) alike, also for a retried event,
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
 * Applies one host event to the store. Every branch is idempotent: the same SQS message twice
 * (or a late one) leaves the store as it was.
 */
/** The counter of each outbound status a message advances to (docs/observability.md). */
const STATUS_COUNTERS: Partial<Record<string, Counter>> = {
  sent: 'messagesSent',
  delivered: 'messagesDelivered',
  read: 'messagesRead',
  failed: 'messagesFailed',
};

export async function applyHostEvent(e: HostEvent): Promise<void> {
  switch (e.kind) {
    case 'session.status': {
      const updated = await applySessionState(
        e.tenantId,
        e.sessionId,
        e.at,
        {
          status: e.status,
          reason: e.reason,
          qr: e.qr,
          pairingCode: e.pairingCode,
          mobile_number: e.mobile,
          restriction: e.restriction,
        },
        e.fence,
      );
      if (updated) forgetSession(e.tenantId, e.sessionId);
      if (updated && e.mobile) await addAlias(e.tenantId, e.mobile, e.sessionId);
      if (updated)
        await Promise.all([
          sessionStatusWebhook(updated),
          // A restriction change is news on the stream too; a status change alone is not (yet).
          e.restriction !== undefined ? publishRestrictionChange(updated) : undefined,
        ]);
      logger.info({ sessionId: e.sessionId, status: e.status, applied: Boolean(updated) }, 'session status');
      return;
    }
    case 'message.inbound': {
      const m = e.message;
      const stored = storedInbound(e);
      // The message and its sender's contact are independent writes: side by side.
      const [saved] = await Promise.all([
        saveInbound(stored),
        m.senderPhone
          ? saveContacts(
              e.tenantId,
              e.sessionId,
              [{ phone: m.senderPhone, name: m.senderName }],
              m.timestampMs,
            )
          : undefined,
      ]);
      // A placeholder whose real message is stored already changes nothing (inbound-batch.ts).
      if (saved === 'superseded') return;
      const isNew = saved === 'stored' || saved === 'replaced';
      // The stream reads the store: it learns of the message now, whatever the work below takes.
      if (isNew && !needsAnalysis(m)) nudgeTenantFeed(e.tenantId, [stored]);
      // The webhook is queued not only when saveMessage answers true: a retried event whose first run
      // stored the message but failed before queueing must still queue it. The delivery id derives
      // from the message id, so a repeat finds the existing delivery and never POSTs twice.
      await Promise.all([
        saved === 'stored'
          ? recordChatActivity(
              e.tenantId,
              e.sessionId,
              m.chatId,
              m.timestampMs,
              m.groupId ? undefined : m.senderName,
            )
          : undefined,
        needsAnalysis(m) ? undefined : inboundMessageWebhook(e.tenantId, e.sessionId, m),
        afterInboundStored(e.tenantId, e.sessionId, m),
      ]);
      return;
    }
    case 'message.own':
      return applyOwnMessage(e);
    case 'message.status': {
      const advanced = await advanceStatus(e.tenantId, e.sessionId, e.messageId, e.status, e.at, e.reason);
      if (advanced) {
        const counter = STATUS_COUNTERS[e.status];
        if (counter) count(counter);
        await messageStatusWebhook(advanced);
      }
      return;
    }
    case 'contacts':
      await saveContacts(e.tenantId, e.sessionId, e.contacts);
      return;
    case 'group':
      await saveGroup(e.tenantId, e.sessionId, e);
      return;
    case 'lid.mapping':
      await saveLidMapping(e.tenantId, e.sessionId, e.lid, e.phone);
      return;
    case 'message.changed':
      await applyMessageChange(e);
      return;
    case 'call':
      await applyCall(e);
      return;
    case 'history':
      await applyHistory(e);
      return;
    case 'command.result': {
      const done = await recordCommandResult(e.tenantId, e.commandId, e.ok, e.result, e.error, e.at);
      if (done) await commandResultWebhook(done);
      return;
    }
  }
}

/**
 * The business wrote from its phone: the message joins the chat's history (outbound, `origin:
 * phone`) and, where the tenant's chatbot acts, the bot stays out of the chat for the takeover time
 * (docs/chatbot.md, "Human takeover"). A message the service sent itself comes back the same way
 * and is already stored under its id: it changes nothing. A retried event finds its own message
 * stored with `origin: phone` and extends again, which is idempotent.
 */
async function applyOwnMessage(e: Extract<HostEvent, { kind: 'message.own' }>): Promise<void> {
  const m = e.message;
  const session = await getSession(e.tenantId, e.sessionId);
  if (!session) return;
  const stored: StoredMessage = {
    tenantId: e.tenantId,
    sessionId: e.sessionId,
    messageId: m.id,
    direction: 'outbound',
    origin: 'phone',
    chatId: m.chatId,
    senderPhone: session.mobile_number ?? null,
    kind: m.kind,
    text: m.text,
    caption: m.caption,
    status: 'sent',
    timestampMs: m.timestampMs,
    statusAt: e.at,
  };
  const isNew = await saveMessage(stored);
  const fromPhone = isNew || (await getMessage(e.tenantId, e.sessionId, m.id))?.origin === 'phone';
  if (!fromPhone || !(await chatbotMayAct(e.tenantId))) return;
  await extendTakeover(e.tenantId, session, m.chatId, 'phone', m.timestampMs);
}
