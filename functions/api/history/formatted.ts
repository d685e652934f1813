import { z } from '@hono/zod-openapi';
import type { StoredMessage } from '#shared/messages/message';
import { messagesNewestFirst } from '#shared/messages/repository';
import { chatOf, groupJid } from '#shared/phone/jid';
import { numberingPlan } from '#shared/phone/readable';
import type { Session } from '#shared/sessions/session';
import { chatsOfNumber, queryChats } from './chats.ts';
import { PhoneDigits } from './query.ts';
import { displayText, LidResolver, type Party, partyReadable } from './readable.ts';

/**
 * History with readable phone numbers, per session: what `GET /api/v1/formatted` answers and the MCP
 * server's chat tools read (functions/api/mcp/).
 */

export const FormattedMessage = z
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
export const ChatId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((v) => {
    const kind = chatOf(v)?.kind;
    return kind === 'group' || kind === 'lid' || PhoneDigits.safeParse(v).success;
  }, 'a phone number, <lid>@lid or <id>@g.us');

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

export type FormattedMessage = z.infer<typeof FormattedMessage>;

/** The latest message of each of the session's `limit` most recent chats, newest first. */
export async function latestPerChat(session: Session, limit: number): Promise<FormattedMessage[]> {
  const resolver = new LidResolver(session.tenantId);
  const latest = await recentChats(session, limit);
  return Promise.all(latest.map((m) => formatted(m, session, resolver)));
}

/** A chat's latest `limit` messages, oldest first, and the chat in spaced E.164 (or its JID). */
export async function chatHistory(
  session: Session,
  chatId: string,
  limit: number,
): Promise<{ chatId: string; messages: FormattedMessage[] }> {
  const tenantId = session.tenantId;
  const resolver = new LidResolver(tenantId);
  const plan = await numberingPlan();
  let chatIds: string[];
  let shown: string;
  const asked = chatOf(chatId);
  if (asked?.kind === 'group') {
    chatIds = [groupJid(asked.id)];
    shown = groupJid(asked.id);
  } else if (asked?.kind === 'lid') {
    const phone = await resolver.phoneOf(session.sessionId, asked.lid);
    chatIds = phone ? [chatId, phone] : [chatId];
    shown = phone ? plan.readable(phone) : `lid:${asked.lid}`;
  } else {
    const digits = PhoneDigits.parse(chatId);
    const found = await chatsOfNumber(tenantId, digits, [session]);
    chatIds = found.chatIds;
    shown = plan.readable(found.phones[0] ?? digits);
  }
  const newest = await queryChats({ tenantId, sessionId: session.sessionId }, chatIds, limit);
  // The chat as the messages know it, when they name a phone.
  const phoneChat = newest.find((m) => chatOf(m.chatId)?.kind === 'phone')?.chatId;
  if (phoneChat && asked?.kind !== 'group') shown = plan.readable(phoneChat);
  const messages = await Promise.all(newest.reverse().map((m) => formatted(m, session, resolver)));
  return { chatId: shown, messages };
}
