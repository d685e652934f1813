import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import type { StoredMessage } from '#shared/messages/message';
import { messagesNewestFirst } from '#shared/messages/repository';
import { chatOf, groupJid } from '#shared/phone/jid';
import { numberingPlan } from '#shared/phone/readable';
import { requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { requireAuth } from '../auth/middleware.ts';
import { chatsOfNumber, queryChats } from './chats.ts';
import { Limit, PhoneDigits } from './query.ts';
import { displayText, LidResolver, type Party, partyReadable } from './readable.ts';

const FormattedMessage = z
  .object({
    id: z.string(),
    from: z.string().openapi({ example: '+91 98765 43210' }),
    to: z.string().openapi({ example: '+1 415 555 0123' }),
    sender_name: z.string(),
    message: z.string(),
    timestamp: z.string().openapi({ description: 'ISO 8601' }),
    status: z.string(),
    direction: z.enum(['inbound', 'outbound']),
    type: z.string(),
  })
  .openapi('FormattedMessage');

/** `chatId`: a number (with or without country code, or a JID), `<lid>@lid`, or `<id>@g.us`. */
const ChatId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((v) => {
    const kind = chatOf(v)?.kind;
    return kind === 'group' || kind === 'lid' || PhoneDigits.safeParse(v).success;
  }, 'a phone number, <lid>@lid or <id>@g.us');

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

async function formatted(
  m: StoredMessage,
  session: Session,
  resolver: LidResolver,
): Promise<z.infer<typeof FormattedMessage>> {
  const plan = await numberingPlan();
  const readable = (p: Party) => partyReadable(p, plan);
  const self: Party | undefined = session.mobile_number
    ? { kind: 'phone', digits: session.mobile_number }
    : undefined;
  const selfReadable = self ? readable(self) : session.sessionId;
  const [sender, chat] = await Promise.all([resolver.sender(m), resolver.chat(m.sessionId, m.chatId)]);
  const inbound = m.direction === 'inbound';
  const from = inbound ? (sender ? readable(sender) : readable(chat)) : selfReadable;
  // A group message goes to the group; a direct one to the other side of the chat.
  const to = inbound ? (chat.kind === 'group' ? readable(chat) : selfReadable) : readable(chat);
  return {
    id: m.messageId,
    from,
    to,
    sender_name: m.senderName || (inbound ? from : (session.name ?? selfReadable)),
    message: displayText(m),
    timestamp: new Date(m.timestampMs).toISOString(),
    status: m.status,
    direction: m.direction,
    type: m.kind,
  };
}

/** The latest message of each of the session's most recent `limit` chats, newest first. */
async function recentChats(session: Session, limit: number): Promise<StoredMessage[]> {
  const seen = new Set<string>();
  const out: StoredMessage[] = [];
  const feed = messagesNewestFirst(
    { tenantId: session.tenantId, sessionId: session.sessionId },
    { pageSize: 200 },
  );
  for await (const m of feed) {
    if (seen.has(m.chatId)) continue;
    seen.add(m.chatId);
    out.push(m);
    if (out.length >= limit) break;
  }
  return out;
}

export function formattedRoutes() {
  const r = router();
  r.use('/formatted', requireAuth);
  r.openapi(route, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const session = await requireSession(tenantId, q.mobid);
    const resolver = new LidResolver(tenantId);

    if (!q.chatId) {
      const latest = await recentChats(session, q.limit);
      const messages = await Promise.all(latest.map((m) => formatted(m, session, resolver)));
      return c.json({ success: true as const, chatId: 'all', total: messages.length, messages }, 200);
    }

    const plan = await numberingPlan();
    let chatIds: string[];
    let shown: string;
    const asked = chatOf(q.chatId);
    if (asked?.kind === 'group') {
      chatIds = [groupJid(asked.id)];
      shown = groupJid(asked.id);
    } else if (asked?.kind === 'lid') {
      const phone = await resolver.phoneOf(session.sessionId, asked.lid);
      chatIds = phone ? [q.chatId, phone] : [q.chatId];
      shown = phone ? plan.readable(phone) : `lid:${asked.lid}`;
    } else {
      const digits = PhoneDigits.parse(q.chatId);
      const found = await chatsOfNumber(tenantId, digits, [session]);
      chatIds = found.chatIds;
      shown = plan.readable(found.phones[0] ?? digits);
    }
    const newest = await queryChats({ tenantId, sessionId: session.sessionId }, chatIds, q.limit);
    // The chat as the messages know it, when they name a phone.
    const phoneChat = newest.find((m) => chatOf(m.chatId)?.kind === 'phone')?.chatId;
    if (phoneChat && asked?.kind !== 'group') shown = plan.readable(phoneChat);
    const messages = await Promise.all(newest.reverse().map((m) => formatted(m, session, resolver)));
    return c.json({ success: true as const, chatId: shown, total: messages.length, messages }, 200);
  });
  return r;
}
