import { z } from 'zod';
import { OutboundContent } from '../messages/content.ts';

const base = {
  commandId: z.string(),
  tenantId: z.string(),
  sessionId: z.string(),
  issuedAt: z.number(),
};

/** What a session shows a chat: typing, recording, stopped; or itself online or offline. */
export const PresenceState = z.enum(['composing', 'recording', 'paused', 'available', 'unavailable']);
export type PresenceState = z.infer<typeof PresenceState>;

/** The most messages one read command marks. */
export const READ_MAX = 100;

/** A received message to mark read: its id, who sent it (in a group the key needs the sender), and whether it is a voice note (marked played too). */
export const ReadTarget = z.object({
  id: z.string(),
  senderPhone: z.string().optional(),
  senderLid: z.string().optional(),
  voice: z.boolean().optional(),
});
export type ReadTarget = z.infer<typeof ReadTarget>;

/** The most numbers one contact check asks about. */
export const CHECK_MAX = 50;

/** Whether a number has an account on the network; `jid` is the account's id, which may differ from the number asked (some countries' numbers are rewritten). */
export const NumberCheck = z.object({
  number: z.string(),
  exists: z.boolean(),
  jid: z.string().nullable(),
});
export type NumberCheck = z.infer<typeof NumberCheck>;

/** Work for the connection host. One FIFO queue per shard, MessageGroupId = sessionId. */
export const Command = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('connect'),
    method: z.enum(['qr', 'phone']),
    phoneNumber: z.string().optional(),
  }),
  z.object({ ...base, kind: z.literal('logout') }),
  /** Drop the link and connect again at once from the stored auth state, backoff reset. */
  z.object({ ...base, kind: z.literal('reconnect') }),
  z.object({
    ...base,
    kind: z.literal('send'),
    messageId: z.string(),
    to: z.string(),
    content: OutboundContent,
    /**
     * Set by the chatbot: the host pauses, shows `presence` while "typing" for a time that grows
     * with the text, then sends (docs/chatbot.md, "Pipeline and delivery"). Absent: sent at once.
     */
    delivery: z
      .object({ humanLike: z.literal(true), presence: z.enum(['composing', 'recording']) })
      .optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('react'),
    to: z.string(),
    messageId: z.string(),
    emoji: z.string(),
  }),
  z.object({ ...base, kind: z.literal('pin'), chatId: z.string(), pin: z.boolean() }),
  z.object({
    ...base,
    kind: z.literal('read'),
    chatId: z.string(),
    messages: z.array(ReadTarget).min(1).max(READ_MAX),
  }),
  z.object({
    ...base,
    kind: z.literal('presence'),
    chatId: z.string(),
    state: PresenceState,
    /** Shown at most this long: the host then sends `paused`, unless a message to the chat came first. */
    pauseAfterMs: z.number().int().positive().max(60_000).optional(),
  }),
  z.object({ ...base, kind: z.literal('check'), numbers: z.array(z.string()).min(1).max(CHECK_MAX) }),
  z.object({ ...base, kind: z.literal('edit'), chatId: z.string(), messageId: z.string(), text: z.string() }),
  z.object({
    ...base,
    kind: z.literal('delete'),
    chatId: z.string(),
    messageId: z.string(),
    fromMe: z.boolean(),
    forEveryone: z.boolean(),
  }),
  z.object({
    ...base,
    kind: z.literal('status'),
    type: z.enum(['text', 'image', 'video']),
    content: z.string(),
    backgroundColor: z.string().optional(),
    /** Phone digits that should see the story besides the session's stored contacts. */
    audience: z.array(z.string()).optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('group'),
    action: z.string(),
    groupId: z.string().optional(),
    subject: z.string().optional(),
    description: z.string().optional(),
    participants: z.array(z.string()).optional(),
  }),
]);
export type Command = z.infer<typeof Command>;
export type CommandKind = Command['kind'];
