import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { ChatId, chatHistory, FormattedMessage, latestPerChat } from './formatted.ts';
import { Limit } from './query.ts';

const FormattedQuery = z.object({
  mobid: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .openapi({ description: 'The session: mobid, mobile number or session id' }),
  chatId: ChatId.optional().openapi({
    description: 'Contact number; when omitted, the latest message of each recent chat',
  }),
  limit: Limit(20),
});

const route = createRoute({
  method: 'get',
  path: '/formatted',
  tags: ['history'],
  security: bearer,
  summary:
    'History with readable phone numbers: one chat (oldest first), or the latest message of each recent chat',
  request: { query: FormattedQuery },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        chatId: z.string().openapi({ description: 'Spaced E.164 form of the chat, or `all`' }),
        total: z.number().int(),
        messages: z.array(FormattedMessage),
      }),
    ),
    ...errorResponses,
  },
});

export function formattedRoutes() {
  const r = router();
  r.use('/formatted', requireAuth);
  r.openapi(route, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const session = await requireSession(tenantId, q.mobid);

    if (!q.chatId) {
      const messages = await latestPerChat(session, q.limit);
      return c.json({ success: true as const, chatId: 'all', total: messages.length, messages }, 200);
    }

    const { chatId, messages } = await chatHistory(session, q.chatId, q.limit);
    return c.json({ success: true as const, chatId, total: messages.length, messages }, 200);
  });
  return r;
}
