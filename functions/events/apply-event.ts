import { chatbotMayAct } from '#shared/chatbot/gate';
import { extendTakeover } from '#shared/chatbot/takeover';
import { recordCommandResult } from '#shared/commands/results';
import { saveContacts, saveGroup, saveLidMapping } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { applyMessageChange } from '#shared/messages/changes';
import type { StoredMessage } from '#shared/messages/message';
import { applyPollVote } from '#shared/messages/poll-votes';
import { advanceStatus, getMessage, saveMessage } from '#shared/messages/repository';
import { type Counter, count } from '#shared/metrics/metrics';
import { recordStatusChange } from '#shared/sessions/history';
import { addAlias, applySessionState, getSession } from '#shared/sessions/repository';
import { publishRestrictionChange } from '#shared/stream/restriction-event';
import {
  commandResultWebhook,
  forgetSession,
  messageStatusWebhook,
  sessionStatusWebhook,
} from '#shared/webhooks/events';
import { applyCall } from './calls.ts';
import { applyHistory } from './history.ts';

/** The counter of each outbound status a message advances to (docs/observability.md). */
const STATUS_COUNTERS: Partial<Record<string, Counter>> = {
  sent: 'messagesSent',
  delivered: 'messagesDelivered',
  read: 'messagesRead',
  failed: 'messagesFailed',
};

/** Every host event but an inbound message (those are stored in runs: inbound-messages.ts). */
export type OtherEvent = Exclude<HostEvent, { kind: 'message.inbound' }>;

/**
 * Applies one host event that is not an inbound message. Every branch is idempotent: the same SQS
 * message twice (or a late one) leaves the store as it was.
 */
export async function applyEvent(e: OtherEvent): Promise<void> {
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
          // The health and reconnect history the console shows (GET /api/sessions/{id}/history).
          recordStatusChange(updated),
          // A restriction change is news on the stream too; a status change alone is not (yet).
          e.restriction !== undefined ? publishRestrictionChange(updated) : undefined,
        ]);
      logger.info({ sessionId: e.sessionId, status: e.status, applied: Boolean(updated) }, 'session status');
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
    case 'poll.vote':
      await applyPollVote(e);
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
