import { z } from '@hono/zod-openapi';
import { READ_MAX, type ReadTarget } from '#shared/commands/types';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { chatInput } from '#shared/phone/schema';
import { messageKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { requireAuth } from '../auth/middleware.ts';
import { acceptCommand } from '../commands/accept.ts';
import { actionRoute, SessionRef } from '../commands/schemas.ts';
import { requireReadySession } from '../sessions/service.ts';

/** A chat as history names it: digits, `<id>@g.us`, or `<lid>@lid` for a sender known only by LID. */
const ReadChat = z
  .union([z.string().regex(/^\d{5,20}@lid$/), chatInput()])
  .openapi({ description: 'The chat: a phone number with country code, <id>@g.us, or <lid>@lid' });

const ReadBody = z.object({
  sessionId: SessionRef,
  chatId: ReadChat,
  messageIds: z
    .array(z.string().trim().min(1).max(128))
    .min(1)
    .max(READ_MAX)
    .optional()
    .openapi({
      description: `Received messages of the chat to mark read (at most ${READ_MAX}); default: the chat's latest ${READ_MAX} received messages`,
    }),
});

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
async function targetsOf(tenantId: string, sessionId: string, chatId: string, ids?: string[]) {
  if (!ids) {
    const latest = await queryMessages({ tenantId, sessionId, chatId, direction: 'inbound' }, READ_MAX);
    if (latest.length === 0)
      throw new NotFoundError(`chatId: no received messages of ${chatId} in this session`);
    return latest.map(targetOf);
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
    return targetOf(m);
  });
}

/** `POST /read`, mounted inside `/api/messages`: read receipts, a session action. */
export function readRoutes() {
  const r = router();
  r.use('/read', requireAuth);
  r.openapi(
    actionRoute('/read', 'Mark received messages of a chat read (voice notes played)', ReadBody),
    async (c) => {
      const b = c.req.valid('json');
      const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
      const messages = await targetsOf(session.tenantId, session.sessionId, b.chatId, b.messageIds);
      const { commandId } = await acceptCommand(session, { kind: 'read', chatId: b.chatId, messages });
      return c.json({ success: true as const, commandId, status: 'pending' as const }, 202);
    },
  );
  return r;
}
