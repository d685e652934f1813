import { createRoute, z } from '@hono/zod-openapi';
import { tenantOfPortal } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { errorResponses, json } from '#shared/http/schemas';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { mediaLink } from '#shared/presentation/media-link';
import { resolveSender } from '#shared/presentation/sender';
import { streamPayload } from '#shared/stream/payload';
import { Limit } from './query.ts';

const MSG_KINDS: Record<'text' | 'audio' | 'image' | 'document', string[]> = {
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

export const StreamPayloadSchema = z
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

const route = createRoute({
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
    200: json(
      z.object({
        success: z.literal(true),
        portal_id: z.string(),
        count: z.number().int(),
        messages: z.array(StreamPayloadSchema),
      }),
    ),
    ...errorResponses,
  },
});

/** The SSE stream's payload (shared/stream/payload.ts), so the feed and the stream read alike. */
async function payloadOf(tenantId: string, m: StoredMessage) {
  const [sender, url] = await Promise.all([resolveSender(tenantId, m.sessionId, m), mediaLink(tenantId, m)]);
  const p = streamPayload(m, sender, url, m.analysis);
  return {
    ...p,
    event: m.direction === 'inbound' ? ('message:inbound' as const) : ('message:outbound' as const),
    messageId: m.messageId,
  };
}

export function liveRoutes() {
  const r = router();
  r.openapi(route, async (c) => {
    const { portal_id } = c.req.valid('param');
    const q = c.req.valid('query');
    const tenantId = await tenantOfPortal(portal_id);
    if (!tenantId) throw new NotFoundError(`portal ${portal_id} not found`);
    const messages = await queryMessages(
      {
        tenantId,
        direction: q.type === 'all' ? undefined : q.type,
        kinds: q.msgType ? MSG_KINDS[q.msgType] : undefined,
      },
      q.limit,
    );
    const payloads = await Promise.all(messages.map((m) => payloadOf(tenantId, m)));
    return c.json({ success: true as const, portal_id, count: payloads.length, messages: payloads }, 200);
  });
  return r;
}
