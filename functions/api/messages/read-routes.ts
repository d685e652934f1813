import { READ_MAX, type ReadTarget } from '#shared/commands/types';
import { markChatRead } from '#shared/contacts/repository';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { messageKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { requireAuth } from '../auth/middleware.ts';
import { acceptCommand } from '../commands/accept.ts';
import { accepted } from '../commands/action.ts';
import { requireReadySession } from '../sessions/service.ts';
import { readRoute } from './read-routes.schema.ts';

export const targetOf = (m: StoredMessage): ReadTarget => ({
  id: m.messageId,
  ...(m.senderPhone ? { senderPhone: m.senderPhone } : {}),
  ...(m.senderLid ? { senderLid: m.senderLid } : {}),
  ...(m.kind === 'voice' ? { voice: true } : {}),
});

/**
 * The stored received messages to mark read. Named ids must each be a received message of this chat
 * in this session (the receipt needs its sender, and a voice note is marked played): another chat's,
 * session's or tenant's message is not found.
 */
async function messagesOf(tenantId: string, sessionId: string, chatId: string, ids?: string[]) {
  if (!ids) {
    const latest = await queryMessages({ tenantId, sessionId, chatId, direction: 'inbound' }, READ_MAX);
    if (latest.length === 0)
      throw new NotFoundError(`chatId: no received messages of ${chatId} in this session`);
    return latest;
  }
  const unique = [...new Set(ids)];
  const found = await dataTable.getMany<StoredMessage>(
    unique.map((id) => messageKey(tenantId, sessionId, id)),
  );
  return unique.map((id, i) => {
    const m = found[i];
    if (m?.direction !== 'inbound' || m.chatId !== chatId) {
      throw new NotFoundError(`messageIds: ${id} is not a received message of ${chatId} in this session`);
    }
    return m;
  });
}

/** `POST /read`, mounted inside `/api/messages`: read receipts, a session action. */
export function readRoutes() {
  const r = router();
  r.use('/read', requireAuth);
  r.openapi(readRoute, async (c) => {
    const b = c.req.valid('json');
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const read = await messagesOf(session.tenantId, session.sessionId, b.chatId, b.messageIds);
    const messages = read.map(targetOf);
    const { commandId } = await acceptCommand(session, { kind: 'read', chatId: b.chatId, messages });
    // The chat list's unread count starts after the newest message marked read.
    const newest = Math.max(...read.map((m) => m.timestampMs));
    await markChatRead(session.tenantId, session.sessionId, b.chatId, newest);
    return c.json(accepted(commandId), 202);
  });
  return r;
}
