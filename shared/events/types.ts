import { z } from 'zod';
import { InboundMessage, OwnMessage, PollVote } from '../messages/content.ts';
import { Restriction } from '../sessions/restriction.ts';

export const SessionStatus = z.enum([
  'REGISTERING',
  'QR_READY',
  'PAIRING',
  'READY',
  'RECONNECTING',
  'DISCONNECTED',
  'LOGGED_OUT',
  'FAILED',
]);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const MessageStatus = z.enum(['queued', 'sent', 'delivered', 'read', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

const base = { tenantId: z.string(), sessionId: z.string(), at: z.number() };

/**
 * A call's progress as the network reports it to the account (docs/events.md, "call"): `offer` (it
 * rings), `accepted` (answered on the phone), `rejected` (declined: by the phone, or by this
 * session's `rejectCalls`), `missed` (nobody answered, or the caller hung up first), `ended`.
 */
export const CallStatus = z.enum(['offer', 'accepted', 'rejected', 'missed', 'ended']);
export type CallStatus = z.infer<typeof CallStatus>;

/** One step of a call, in our words: the caller as digits (null when the network hides it behind a LID). */
export const CallUpdate = z.object({
  callId: z.string(),
  from: z.string().nullable(),
  fromLid: z.string().optional(),
  video: z.boolean(),
  group: z.boolean(),
  status: CallStatus,
  /** When the network says it happened (epoch ms). */
  timestampMs: z.number(),
  /** Set on a `rejected` that this session's `rejectCalls` setting made. */
  bySession: z.boolean().optional(),
});
export type CallUpdate = z.infer<typeof CallUpdate>;

/** What the connection host reports, on the events queue. Consumers are idempotent per event. */
export const HostEvent = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('session.status'),
    status: SessionStatus,
    reason: z.string().optional(),
    qr: z.string().optional(),
    pairingCode: z.string().optional(),
    mobile: z.string().optional(),
    /** The network's restriction on new chats; `null` when lifted, absent when unchanged. */
    restriction: Restriction.nullable().optional(),
    /** The writer's shard lease fence; a lower fence than the stored one is a stale host. */
    fence: z.number().int().optional(),
  }),
  z.object({ ...base, kind: z.literal('message.inbound'), message: InboundMessage }),
  /** The business wrote from its phone (docs/chatbot.md, "Human takeover"). */
  z.object({ ...base, kind: z.literal('message.own'), message: OwnMessage }),
  z.object({
    ...base,
    kind: z.literal('message.status'),
    messageId: z.string(),
    status: MessageStatus,
    reason: z.string().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('contacts'),
    contacts: z.array(
      z.object({ phone: z.string(), name: z.string().optional(), lid: z.string().optional() }),
    ),
  }),
  z.object({
    ...base,
    kind: z.literal('group'),
    groupId: z.string(),
    subject: z.string(),
    participants: z.array(z.object({ phone: z.string(), name: z.string().optional() })),
  }),
  z.object({ ...base, kind: z.literal('lid.mapping'), lid: z.string(), phone: z.string() }),
  /** A message was edited or deleted: by the contact or the account's phone (network), or through the API. */
  z.object({
    ...base,
    kind: z.literal('message.changed'),
    messageId: z.string(),
    chatId: z.string(),
    change: z.enum(['edited', 'deleted']),
    /** The new text of an edit. */
    text: z.string().optional(),
    /** Whether the message is one the account sent. */
    fromMe: z.boolean(),
    /** A deletion: for everyone in the chat (the network's revoke), or from this service's history only. */
    forEveryone: z.boolean().optional(),
  }),
  /** A contact voted on a poll the session sent (decrypted by the host). */
  z.object({ ...base, kind: z.literal('poll.vote'), vote: PollVote }),
  z.object({ ...base, kind: z.literal('call'), call: CallUpdate }),
  /** Messages the phone sent at linking (history sync), for a session that asked (`syncHistory`). */
  z.object({
    ...base,
    kind: z.literal('history'),
    messages: z.array(InboundMessage),
    /** The network's kind of sync (`INITIAL_BOOTSTRAP`, `RECENT`, `FULL`, …) and how far it is (0–100). */
    syncType: z.string(),
    progress: z.number().nullable(),
  }),
  z.object({
    ...base,
    kind: z.literal('command.result'),
    commandId: z.string(),
    ok: z.boolean(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.string().optional(),
  }),
]);
export type HostEvent = z.infer<typeof HostEvent>;
