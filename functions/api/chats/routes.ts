import { router } from '#shared/http/context';
import { NotFoundError, ValidationError } from '#shared/http/errors';
import { getMessage } from '#shared/messages/repository';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { chatMessagePage, listChatPage } from './list.ts';
import { listRoute, messagesRoute } from './routes.schema.ts';

/** Mounted at `/api/chats`; every read is of the caller's tenant's session. */
export function chatRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    const session = await requireSession(c.get('auth').tenant, q.sessionId);
    return c.json({ success: true as const, ...(await listChatPage(session, q.limit, q.before)) }, 200);
  });
  r.openapi(messagesRoute, async (c) => {
    const { chatId } = c.req.valid('param');
    const q = c.req.valid('query');
    const session = await requireSession(c.get('auth').tenant, q.sessionId);
    let before: Awaited<ReturnType<typeof getMessage>>;
    if (q.before) {
      before = await getMessage(session.tenantId, session.sessionId, q.before);
      if (before?.chatId !== chatId) {
        throw new ValidationError(`before: ${q.before} is not a message of ${chatId} in this session`);
      }
    }
    const page = await chatMessagePage(session, chatId, q.limit, before);
    // A chat with no messages in this session (or another tenant's chat) is not found.
    if (!before && page.messages.length === 0) {
      throw new NotFoundError(`chatId: no messages of ${chatId} in this session`);
    }
    return c.json({ success: true as const, chatId, ...page }, 200);
  });
  return r;
}
