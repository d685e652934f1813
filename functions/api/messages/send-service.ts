import { hasChat } from '#shared/contacts/repository';
import { NewChatsRestrictedError, QuotaExceededError, ServiceError } from '#shared/http/errors';
import { logger } from '#shared/log/logger';
import type { OutboundContent } from '#shared/messages/content';
import { advanceStatus, deleteMessage, saveMessage } from '#shared/messages/repository';
import { count } from '#shared/metrics/metrics';
import { blocksNewChats, newChatsRefusal } from '#shared/sessions/restriction';
import type { Session } from '#shared/sessions/session';
import { dispatchCommand, newCommandId } from '../commands/dispatch.ts';
import { periodOf, secondsToPeriodEnd } from '../usage/period.ts';
import { consumeQuota, limitOf, refundQuota } from '../usage/repository.ts';
import { newMessageId } from './message-id.ts';
import { withOwnMedia } from './own-media.ts';

export interface AcceptedSend {
  messageId: string;
  sessionId: string;
  to: string;
  status: 'queued';
}

/**
 * Accepts one outbound message from a READY session: counts it against the monthly quota, stores it
 * as `queued` and hands a `send` command to the session's host. The host reports `sent`, `delivered`,
 * `read` or `failed` under the same id.
 *
 * Requests per accepted message: 1 conditional UpdateItem (quota) and 1 PutItem (message), in
 * parallel, then 1 SQS SendMessage. Kept as two writes rather than one TransactWriteItems on purpose: concurrent
 * transactions on the same usage item cancel each other (TransactionConflict), while a conditional
 * ADD on one item is serialised by DynamoDB and never conflicts.
 */
export async function acceptSend(input: {
  session: Session;
  to: string;
  content: OutboundContent;
  messageId?: string;
  requestId?: string;
}): Promise<AcceptedSend> {
  const { session, to } = input;
  const { tenantId, sessionId } = session;
  await refuseNewChatWhileRestricted(session, to);
  const content = await withOwnMedia(input.content, tenantId);
  const now = new Date();
  const period = periodOf(now);
  const limit = limitOf(session);
  const messageId = input.messageId ?? newMessageId();
  const timestampMs = now.getTime();
  // Quota and message are independent writes, made side by side (one round trip, not two); each
  // is undone when the other fails, so a refused send leaves neither usage nor history behind.
  const [quota, saved] = await Promise.allSettled([
    consumeQuota(tenantId, sessionId, period, limit),
    saveMessage({
      tenantId,
      sessionId,
      messageId,
      direction: 'outbound',
      chatId: to,
      senderPhone: session.mobile_number ?? null,
      senderName: session.name,
      kind: content.kind,
      text: content.text,
      caption: content.caption,
      fileName: content.fileName,
      mimetype: content.mimetype,
      // A presigned upload URL expires and its object is deleted: not worth keeping.
      mediaUrl: content.uploadKey ? undefined : content.mediaUrl,
      location: content.location,
      contacts: content.contacts,
      poll: content.poll && { ...content.poll, multiple: content.poll.multiple ?? false },
      list: content.list,
      status: 'queued',
      timestampMs,
      statusAt: timestampMs,
    }),
  ]);
  const usage = quota.status === 'fulfilled' ? quota.value : undefined;
  if (usage === undefined) {
    if (saved.status === 'fulfilled') await deleteMessage(tenantId, sessionId, messageId).catch(() => {});
    if (quota.status === 'rejected') throw quota.reason;
    throw new QuotaExceededError(
      `session ${sessionId} has used its ${limit} messages for ${period}; the quota resets at the start of next month (UTC)`,
      secondsToPeriodEnd(now),
    );
  }
  if (saved.status === 'rejected') {
    await refundQuota(tenantId, sessionId, period).catch(() => {});
    throw saved.reason;
  }

  try {
    await dispatchCommand({
      kind: 'send',
      commandId: newCommandId(),
      tenantId,
      sessionId,
      issuedAt: timestampMs,
      messageId,
      to,
      content,
    });
  } catch (err) {
    logger.error({ err, requestId: input.requestId, sessionId, messageId }, 'send command not queued');
    await Promise.allSettled([
      advanceStatus(tenantId, sessionId, messageId, 'failed', Date.now(), 'could not be queued'),
      refundQuota(tenantId, sessionId, period),
    ]);
    throw new ServiceError('UPSTREAM_UNAVAILABLE', 'the message could not be queued; try again');
  }

  logger.info(
    { requestId: input.requestId, sessionId, messageId, kind: content.kind, usage, limit },
    'send accepted',
  );
  count('messagesAccepted');
  return { messageId, sessionId, to, status: 'queued' };
}

/**
 * While the network restricts the account from starting new chats, a send to a chat the session has
 * no history with is refused here (429 NEW_CHATS_RESTRICTED), before it counts or queues: sending
 * into the restriction is what gets an account banned. Existing chats keep working. One GetItem,
 * only while a restriction holds.
 */
async function refuseNewChatWhileRestricted(session: Session, to: string): Promise<void> {
  const now = Date.now();
  const r = session.restriction;
  if (!r || !blocksNewChats(r, now)) return;
  if (await hasChat(session.tenantId, session.sessionId, to)) return;
  throw new NewChatsRestrictedError(
    newChatsRefusal(r).replace(/^NEW_CHATS_RESTRICTED: /, ''),
    r.until ? Math.max(1, Math.ceil((r.until - now) / 1000)) : undefined,
  );
}
