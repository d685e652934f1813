import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';
import { ChatId, FormattedMessage } from './formatted.ts';
import { Limit } from './query.ts';

/**
 * The definitions of the routes of formatted-routes.ts: their schemas, which also make /openapi.json.
 */

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

export const formattedRoute = createRoute({
  method: 'get',
  path: '/formatted',
  tags: ['history'],
  security: bearer,
  summary:
    'History with readable phone numbers: one chat (oldest first), or the latest message of each recent chat',
  request: { query: FormattedQuery },
  responses: {
    200: ok({
      chatId: z.string().openapi({ description: 'Spaced E.164 form of the chat, or `all`' }),
      total: z.number().int(),
      messages: z.array(FormattedMessage),
    }),
    ...errorResponses,
  },
});
