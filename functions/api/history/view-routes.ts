import { createRoute, z } from '@hono/zod-openapi';
import { tokenOrApiKey } from '#shared/auth/host-auth';
import { router } from '#shared/http/context';
import { bearerOrQueryKey, errorResponses, json } from '#shared/http/schemas';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';
import { userJid } from '#shared/phone/jid';
import { mediaLink } from '#shared/presentation/media-link';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { chatsOfNumber, queryChats } from './chats.ts';
import { Limit, PhoneDigits } from './query.ts';
import { displayText, LidResolver, partyJid } from './readable.ts';

const LiveMessage = z
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

const route = createRoute({
  method: 'get',
  path: '/messages/v1',
  tags: ['history'],
  // tokenOrApiKey: a token or an API key as the Bearer credential, or either in `key` (or `apiKey`).
  security: bearerOrQueryKey,
  summary: 'Raw live view of inbound and outbound messages, newest first',
  request: { query: ViewQuery },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
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
    ),
    ...errorResponses,
  },
});

async function liveMessage(m: StoredMessage, resolver: LidResolver): Promise<z.infer<typeof LiveMessage>> {
  const outbound = m.direction === 'outbound';
  const [sender, chat, mediaUrl] = await Promise.all([
    resolver.sender(m),
    resolver.chat(m.sessionId, m.chatId),
    mediaLink(m.tenantId, m),
  ]);
  return {
    id: m.messageId,
    from: sender ? partyJid(sender) : outbound ? 'me' : '',
    chat: partyJid(chat),
    senderName: m.senderName ?? '',
    text: displayText(m),
    timestamp: Math.floor(m.timestampMs / 1000),
    fromMe: outbound,
    direction: m.direction,
    sessionId: m.sessionId,
    type: m.kind,
    status: m.status,
    reason: m.status === 'failed' ? (m.statusReason ?? null) : null,
    mediaUrl,
    mimetype: m.mimetype ?? null,
    fileName: m.fileName ?? null,
    transcription: m.analysis?.transcription ?? null,
    ocrText: m.analysis?.ocrText ?? null,
  };
}

export function viewRoutes() {
  const r = router();
  r.use('/messages/v1', tokenOrApiKey({ peerIsClient: true }));
  r.openapi(route, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const phone = q.phone ?? q.number;
    const session = q.sessionId ? await requireSession(tenantId, q.sessionId) : undefined;
    const base = {
      tenantId,
      sessionId: session?.sessionId,
      direction: q.type === 'all' ? undefined : q.type,
    };
    let messages: StoredMessage[];
    let jid: string | null = null;
    if (phone) {
      const sessions = session ? [session] : await listSessions(tenantId);
      const { phones, chatIds } = await chatsOfNumber(tenantId, phone, sessions);
      messages = await queryChats(base, chatIds, q.limit);
      const shown =
        messages.find((m) => phones.includes(m.chatId))?.chatId ?? phones[phones.length - 1] ?? phone;
      jid = userJid(shown);
    } else {
      messages = await queryMessages(base, q.limit);
    }
    const resolver = new LidResolver(tenantId);
    const out = await Promise.all(messages.map((m) => liveMessage(m, resolver)));
    return c.json(
      {
        success: true as const,
        timestamp: new Date().toISOString(),
        filter: { sessionId: q.sessionId ?? 'all', phone: phone ?? null, jid, type: q.type },
        count: out.length,
        messages: out,
      },
      200,
    );
  });
  return r;
}
