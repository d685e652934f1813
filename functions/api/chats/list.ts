import { z } from '@hono/zod-openapi';
import { bareLid } from '#shared/contacts/lid-cache';
import type { StoredChat } from '#shared/contacts/repository';
import type { StoredMessage } from '#shared/messages/message';
import { messagesNewestFirst } from '#shared/messages/repository';
import { chatOf, lidJid } from '#shared/phone/jid';
import type { Session } from '#shared/sessions/session';
import { chatKey, groupKey, orderKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { displayText } from '../history/readable.ts';

/**
 * The conversation list and one conversation's messages, paged newest first
 * (`GET /api/chats`, `GET /api/chats/{chatId}/messages`).
 */

/** The most unread messages counted per chat: a badge shows "99+" past that. */
export const UNREAD_MAX = 99;

/** The most of the session's messages one chat-list page reads (the walk is bounded, never a scan). */
export const CHAT_WALK_MAX = 5000;

export const ChatMessage = z
  .object({
    id: z.string(),
    chatId: z.string().openapi({ description: 'digits, <id>@g.us or <lid>@lid' }),
    direction: z.enum(['inbound', 'outbound']),
    fromMe: z.boolean(),
    sender: z.string().nullable().openapi({
      description: 'Inbound: the sender digits, or <lid>@lid when the phone is unknown; outbound: null',
    }),
    senderName: z.string().nullable(),
    type: z.string(),
    text: z.string().openapi({ description: 'The text, else the caption, else a label for the kind' }),
    caption: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    location: z.record(z.string(), z.unknown()).nullable(),
    contacts: z.array(z.record(z.string(), z.unknown())).nullable(),
    poll: z.record(z.string(), z.unknown()).nullable(),
    list: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'A list message sent' }),
    listReply: z
      .object({ id: z.string(), title: z.string(), description: z.string().optional() })
      .nullable()
      .openapi({ description: "A contact's choice from a list message: the row" }),
    status: z.string(),
    reason: z.string().nullable().openapi({ description: 'Why the message failed (status `failed`)' }),
    timestamp: z.number().int().openapi({ description: 'Epoch milliseconds' }),
  })
  .openapi('ChatMessage');
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatSummary = z
  .object({
    chatId: z.string().openapi({ description: 'digits, <id>@g.us or <lid>@lid' }),
    kind: z.enum(['direct', 'group']),
    name: z
      .string()
      .nullable()
      .openapi({ description: "The contact's push name or the group's subject, when known" }),
    unreadCount: z
      .number()
      .int()
      .openapi({
        description: `Received messages after the last one sent or marked read (POST /api/messages/read); at most ${UNREAD_MAX}`,
      }),
    lastMessage: ChatMessage,
  })
  .openapi('ChatSummary');
export type ChatSummary = z.infer<typeof ChatSummary>;

export function chatMessage(m: StoredMessage): ChatMessage {
  const inbound = m.direction === 'inbound';
  return {
    id: m.messageId,
    chatId: m.chatId,
    direction: m.direction,
    fromMe: !inbound,
    sender: inbound ? (m.senderPhone ?? (m.senderLid ? lidJid(bareLid(m.senderLid)) : null)) : null,
    senderName: m.senderName ?? null,
    type: m.kind,
    text: displayText(m),
    caption: m.caption ?? null,
    mediaUrl: m.mediaUrl ?? null,
    location: m.location ?? null,
    contacts: m.contacts ?? null,
    poll: m.poll ?? null,
    list: m.list ?? null,
    listReply: m.listReply ?? null,
    status: m.status,
    reason: m.status === 'failed' ? (m.statusReason ?? null) : null,
    timestamp: m.timestampMs,
  };
}

/**
 * Received messages at the head of a chat: counted newest first until one the session sent, one at
 * or before the chat's read mark, or UNREAD_MAX.
 */
async function unreadOf(session: Session, chatId: string, readUpTo: number | undefined): Promise<number> {
  let n = 0;
  const q = { tenantId: session.tenantId, sessionId: session.sessionId, chatId };
  for await (const m of messagesNewestFirst(q, { pageSize: 25, maxRead: 500 })) {
    if (m.direction === 'outbound' || (readUpTo !== undefined && m.timestampMs <= readUpTo)) break;
    if (++n >= UNREAD_MAX) break;
  }
  return n;
}

/**
 * Up to `limit` chats of the session whose last message is older than `before` (epoch ms), the most
 * recent first. The session's messages are walked newest first: the first message seen of each chat
 * is its last, so a chat whose last message is newer than `before` was on an earlier page.
 */
export async function listChatPage(
  session: Session,
  limit: number,
  before?: number,
): Promise<{ chats: ChatSummary[]; next: number | null }> {
  const seen = new Set<string>();
  const latest: StoredMessage[] = [];
  const walk = messagesNewestFirst(
    { tenantId: session.tenantId, sessionId: session.sessionId },
    { pageSize: 200, maxRead: CHAT_WALK_MAX },
  );
  for await (const m of walk) {
    if (seen.has(m.chatId)) continue;
    seen.add(m.chatId);
    if (before !== undefined && m.timestampMs >= before) continue;
    latest.push(m);
    if (latest.length >= limit) break;
  }
  const { tenantId, sessionId } = session;
  const items = await dataTable.getMany<StoredChat>(
    latest.map((m) => chatKey(tenantId, sessionId, m.chatId)),
  );
  const groups = await dataTable.getMany<{ subject?: string }>(
    latest.map((m) => {
      const chat = chatOf(m.chatId);
      // A key that never exists stands in for a direct chat, keeping the answers aligned.
      return groupKey(tenantId, sessionId, chat?.kind === 'group' ? m.chatId : `~${m.chatId}`);
    }),
  );
  const chats = await Promise.all(
    latest.map(async (m, i): Promise<ChatSummary> => {
      const group = chatOf(m.chatId)?.kind === 'group';
      const name = (group ? groups[i]?.subject : undefined) ?? items[i]?.name ?? null;
      return {
        chatId: m.chatId,
        kind: group ? 'group' : 'direct',
        name,
        unreadCount: await unreadOf(session, m.chatId, items[i]?.readUpTo),
        lastMessage: chatMessage(m),
      };
    }),
  );
  const last = latest.at(-1);
  return { chats, next: latest.length === limit && last ? last.timestampMs : null };
}

/**
 * Up to `limit` messages of one chat of the session, newest first, older than the message `before`
 * (a message id of this chat, the `next` of the previous page).
 */
export async function chatMessagePage(
  session: Session,
  chatId: string,
  limit: number,
  before?: StoredMessage,
): Promise<{ messages: ChatMessage[]; next: string | null }> {
  const out: StoredMessage[] = [];
  const q = {
    tenantId: session.tenantId,
    sessionId: session.sessionId,
    chatId,
    ...(before ? { beforeKey: orderKey(before.timestampMs, before.messageId) } : {}),
  };
  for await (const m of messagesNewestFirst(q, { pageSize: Math.min(1000, limit * 2) })) {
    out.push(m);
    if (out.length >= limit) break;
  }
  const last = out.at(-1);
  return { messages: out.map(chatMessage), next: out.length === limit && last ? last.messageId : null };
}
