import { NotFoundError } from '#shared/http/errors';
import { getMessage } from '#shared/messages/repository';
import type { Session } from '#shared/sessions/session';
import { acceptCommand } from '../commands/accept.ts';
import { targetOf } from './read-routes.ts';

/** How long the Cloud API's typing indicator shows when no reply comes (Meta: "up to 25 seconds"). */
export const TYPING_MS = 25_000;

/**
 * The Cloud API's `status: read`: marks one received message read (a `read` command, as
 * `POST /api/messages/read`), and with `typing_indicator` shows typing in its chat until a message
 * is sent there or `TYPING_MS` pass (the host ends it: connection-host/typing-timers.ts). The id
 * must be a received message of this session: another chat's sender is never named by a caller.
 */
export async function markReadCloud(session: Session, messageId: string, typing: boolean): Promise<void> {
  const m = await getMessage(session.tenantId, session.sessionId, messageId);
  if (m?.direction !== 'inbound')
    throw new NotFoundError(`message_id: ${messageId} is not a received message of this session`);
  await acceptCommand(session, { kind: 'read', chatId: m.chatId, messages: [targetOf(m)] });
  if (typing)
    await acceptCommand(session, {
      kind: 'presence',
      chatId: m.chatId,
      state: 'composing',
      pauseAfterMs: TYPING_MS,
    });
}
