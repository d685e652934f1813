import { createRoute, z } from '@hono/zod-openapi';
import { bearerOrQueryKey, errorResponses, ok } from '#shared/http/schemas';
import { Limit, PhoneDigits } from './query.ts';

/**
 * The definitions of the routes of view-routes.ts: their schemas, which also make /openapi.json.
 */

export const LiveMessage = z
  .object({
    id: z.string(),
    from: z
      .string()
      .openapi({ description: '`<digits>@s.whatsapp.net`, or `<lid>@lid` when the phone is unknown' }),
    chat: z.string().openapi({ description: 'The conversation: the contact, or `<id>@g.us` for a group' }),
    senderName: z.string(),
    text: z.string(),
    timestamp: z.number().int().openapi({ description: 'Epoch seconds' }),
    fromMe: z.boolean(),
    direction: z.enum(['inbound', 'outbound']),
    sessionId: z.string(),
    type: z.string(),
    status: z.string(),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the message failed (status `failed`), else null' }),
    mediaUrl: z.string().nullable().openapi({
      description:
        "A link to the message's file (`/links/…`, 7 days, no token needed), else its own URL; null without media",
    }),
    mimetype: z.string().nullable(),
    fileName: z.string().nullable(),
    transcription: z
      .string()
      .nullable()
      .openapi({ description: "A voice note's or audio's text, once analysed" }),
    ocrText: z
      .string()
      .nullable()
      .openapi({ description: 'The text read in an image or document, once analysed' }),
  })
  .openapi('LiveMessage');

const ViewQuery = z.object({
  key: z.string().optional().openapi({ description: 'API key or token (instead of a Bearer header)' }),
  apiKey: z.string().optional(),
  phone: PhoneDigits.optional().openapi({ description: 'Contact number, with or without country code' }),
  number: PhoneDigits.optional().openapi({ description: 'Alias of `phone`' }),
  sessionId: z.string().trim().min(1).max(100).optional(),
  type: z.enum(['inbound', 'outbound', 'all']).default('all'),
  limit: Limit(50),
});

export const viewRoute = createRoute({
  method: 'get',
  path: '/messages/v1',
  tags: ['history'],
  // tokenOrApiKey: a token or an API key as the Bearer credential, or either in `key` (or `apiKey`).
  security: bearerOrQueryKey,
  summary: 'Raw live view of inbound and outbound messages, newest first',
  request: { query: ViewQuery },
  responses: {
    200: ok({
      timestamp: z.string(),
      filter: z.object({
        sessionId: z.string(),
        phone: z.string().nullable(),
        jid: z.string().nullable(),
        type: z.string(),
      }),
      count: z.number().int(),
      messages: z.array(LiveMessage),
    }),
    ...errorResponses,
  },
});
