import type { MessageStatus } from '../../events/types.ts';
import type { InboundMessage } from '../../messages/content.ts';
import type { StoredMessage } from '../../messages/message.ts';
import { mediaLink } from '../../presentation/media-link.ts';
import { resolveSender } from '../../presentation/sender.ts';
import type { Session } from '../../sessions/session.ts';
import { CLOUD_EVENTS } from '../target.ts';
import { type CloudSender, inboundEnvelope, statusEnvelope } from './envelope.ts';

/**
 * The Cloud-format deliveries of host events, built like the native ones (shared/webhooks/events.ts
 * queues both): an entry per event with its own event name, so its delivery id differs from the
 * native delivery's and both are deduplicated the same way.
 */

const senderOf = (tenantId: string, sessionId: string, s: Session | undefined): CloudSender => ({
  tenantId,
  // The mobid is what the Cloud-compatible send path takes as phoneNumberId; the session id stands
  // in while a session has none.
  phoneNumberId: s?.mobid ?? sessionId,
  displayPhoneNumber: s?.mobile_number ?? null,
});

export async function cloudInboundPayload(
  tenantId: string,
  sessionId: string,
  session: Session | undefined,
  m: InboundMessage,
) {
  const [from, mediaUrl] = await Promise.all([resolveSender(tenantId, sessionId, m), mediaLink(tenantId, m)]);
  return inboundEnvelope(senderOf(tenantId, sessionId, session), {
    ...m,
    from: from ?? m.chatId,
    mediaUrl,
  });
}

/** Meta reports statuses of the business's own messages only: an inbound message's status is not sent. */
export function cloudStatusPayload(
  session: Session | undefined,
  m: StoredMessage & { status: MessageStatus },
) {
  if (m.direction !== 'outbound') return undefined;
  return statusEnvelope(senderOf(m.tenantId, m.sessionId, session), {
    messageId: m.messageId,
    chatId: m.chatId,
    status: m.status,
    reason: m.statusReason,
    atMs: m.statusAt,
  });
}

export { CLOUD_EVENTS };
