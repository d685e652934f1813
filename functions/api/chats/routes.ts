import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { NotFoundError, ValidationError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { getMessage } from '#shared/messages/repository';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { SessionRef } from '../commands/schemas.ts';
import { HistoryChat } from '../history/query.ts';
import { ChatMessage, ChatSummary, chatMessagePage, listChatPage } from './list.ts';

const PAGE_MAX = 100;

const PageLimit = (fallback: number) =>
  z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(PAGE_MAX, `limit must be at most ${PAGE_MAX}`)
    .default(fallback)
    .openapi({ type: 'integer', default: fallback, maximum: PAGE_MAX });

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['history'],
  security: bearer,
  summary: "A session's conversations, the most recent first, with the last message and unread count",
  request: {
    query: z.object({
      sessionId: SessionRef,
      limit: PageLimit(20),
      before: z.coerce
        .number()
        .int('before must be an integer')
        .min(0, 'before must be epoch milliseconds')
        .optional()
        .openapi({
          type: 'integer',
          description:
            'Chats whose last message is older than this (epoch ms): the `next` of the previous page',
        }),
    }),
  },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        chats: z.array(ChatSummary),
        next: z
          .number()
          .int()
          .nullable()
          .openapi({ description: '`before` for the next page; null at the end' }),
      }),
    ),
    ...errorResponses,
  },
});

const messagesRoute = createRoute({
  method: 'get',
  path: '/{chatId}/messages',
  tags: ['history'],
  security: bearer,
  summary: "One conversation's messages, newest first, paged",
  request: {
    params: z.object({ chatId: HistoryChat }),
    query: z.object({
      sessionId: SessionRef,
      limit: PageLimit(50),
      before: z.string().trim().min(1).max(128).optional().openapi({
        description: 'A message id of this chat: messages older than it (the `next` of the previous page)',
      }),
    }),
  },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        chatId: z.string(),
        messages: z.array(ChatMessage),
        next: z.string().nullable().openapi({ description: '`before` for the next page; null at the end' }),
      }),
    ),
    ...errorResponses,
  },
});

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
