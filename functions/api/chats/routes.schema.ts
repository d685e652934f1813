import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';
import { SessionRef } from '../commands/schemas.ts';
import { HistoryChat } from '../history/query.ts';
import { ChatMessage, ChatSummary } from './list.ts';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

export const PAGE_MAX = 100;

const PageLimit = (fallback: number) =>
  z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(PAGE_MAX, `limit must be at most ${PAGE_MAX}`)
    .default(fallback)
    .openapi({ type: 'integer', default: fallback, maximum: PAGE_MAX });

export const listRoute = createRoute({
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
    200: ok({
      chats: z.array(ChatSummary),
      next: z
        .number()
        .int()
        .nullable()
        .openapi({ description: '`before` for the next page; null at the end' }),
    }),
    ...errorResponses,
  },
});

export const messagesRoute = createRoute({
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
    200: ok({
      chatId: z.string(),
      messages: z.array(ChatMessage),
      next: z.string().nullable().openapi({ description: '`before` for the next page; null at the end' }),
    }),
    ...errorResponses,
  },
});
