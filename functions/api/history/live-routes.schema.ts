import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, ok } from '#shared/http/schemas';
import { Limit } from './query.ts';

/**
 * The definitions of the routes of live-routes.ts: their schemas, which also make /openapi.json.
 */

export const MSG_KINDS: Record<'text' | 'audio' | 'image' | 'document', string[]> = {
  text: ['text'],
  audio: ['audio', 'voice'],
  image: ['image'],
  document: ['document', 'pdf'],
};

const Media = z.object({
  hasMedia: z.boolean(),
  mediaType: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  stt_transcription: z.string().nullable(),
  confidence: z.string().nullable(),
  ocr_text: z.string().nullable(),
});

const StreamPayloadSchema = z
  .object({
    event: z.enum(['message:inbound', 'message:outbound']),
    sessionId: z.string(),
    messageId: z.string(),
    sender: z.string().nullable().openapi({ description: 'Digits; `<lid>@lid` when the phone is unknown' }),
    sender_name: z.string(),
    type: z.string(),
    message: z.string(),
    timestamp: z.number().int().openapi({ description: 'Epoch milliseconds' }),
    media: Media,
  })
  .openapi('StreamPayload');

export const liveMessagesRoute = createRoute({
  method: 'get',
  path: '/{portal_id}/live-messages',
  tags: ['history'],
  summary:
    "The tenant's recent messages in the stream payload shape, newest first (the portal id is the credential)",
  security: [],
  request: {
    params: z.object({
      portal_id: z
        .string()
        .regex(/^prt_[0-9a-f]{1,64}$/, 'a portal id (prt_<hex>)')
        .openapi({ param: { name: 'portal_id', in: 'path' } }),
    }),
    query: z.object({
      type: z.enum(['inbound', 'outbound', 'all']).default('inbound'),
      msgType: z.enum(['text', 'audio', 'image', 'document']).optional(),
      limit: Limit(50),
    }),
  },
  responses: {
    200: ok({ portal_id: z.string(), count: z.number().int(), messages: z.array(StreamPayloadSchema) }),
    ...errorResponses,
  },
});
