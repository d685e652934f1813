import { z } from 'zod';
import { ContactCard, Location, Poll } from '#shared/messages/content';
import { phoneNumberInput } from '#shared/phone/schema';
import { MessageKind } from '../protocol.ts';

/** The bodies of the test controls (`POST /_sim/…`, docs/simulator.md), one schema per route. */

const digits = phoneNumberInput();

/** `/_sim/inbound`: someone on the network writes to the account. */
export const InboundBody = z.object({
  sessionId: z.string().min(1),
  from: digits,
  name: z.string().max(200).optional(),
  type: MessageKind.default('text'),
  text: z.string().max(65_536).optional(),
  mediaUrl: z.string().url().optional(),
  mimetype: z.string().max(200).optional(),
  fileName: z.string().max(300).optional(),
  groupId: z.string().max(100).optional(),
  lid: z.boolean().optional(),
  location: Location.optional(),
  contacts: z.array(ContactCard).min(1).optional(),
  poll: Poll.optional(),
  /** A choice from a list message: `type` text, `text` the row's title (default). */
  listReply: z
    .object({
      id: z.string().min(1).max(200),
      title: z.string().min(1).max(100),
      description: z.string().max(200).optional(),
    })
    .optional(),
});

/** `/_sim/vote`: a contact votes on a poll the account sent. */
export const VoteBody = z.object({
  sessionId: z.string().min(1),
  from: digits,
  messageId: z.string().min(1).max(100),
  options: z.array(z.string().min(1).max(100)).max(12),
  groupId: z.string().max(100).optional(),
});

/** `/_sim/own`: the account's own phone writes to a customer. */
export const OwnBody = z.object({
  sessionId: z.string().min(1),
  to: digits,
  text: z.string().min(1).max(65_536),
  id: z.string().min(1).max(100).optional(),
});

/** `/_sim/call`: a call rings the account, or a later step of it. */
export const CallBody = z
  .object({
    sessionId: z.string().min(1),
    from: digits,
    video: z.boolean().default(false),
    status: z.enum(['offer', 'accepted', 'rejected', 'missed', 'ended']).default('offer'),
    callId: z.string().min(1).max(100).optional(),
  })
  .refine((b) => b.status === 'offer' || b.callId, 'callId names the call for a step after offer');

/** `/_sim/history`: the phone syncs messages contacts sent before. */
export const HistoryBody = z.object({
  sessionId: z.string().min(1),
  messages: z
    .array(
      z.object({
        from: digits,
        name: z.string().max(200).optional(),
        text: z.string().min(1).max(65_536),
        timestampMs: z.number().int().positive(),
      }),
    )
    .min(1)
    .max(1000),
});

/** `/_sim/change`: a contact edits or deletes for everyone a message it sent. */
export const ChangeBody = z
  .object({
    sessionId: z.string().min(1),
    from: digits,
    messageId: z.string().min(1).max(100),
    change: z.enum(['edited', 'deleted']),
    text: z.string().min(1).max(65_536).optional(),
  })
  .refine((b) => b.change === 'deleted' || b.text !== undefined, 'text is required for an edit');

/** `/_sim/groups`: a group with the account in it. */
export const GroupsBody = z.object({
  sessionId: z.string(),
  subject: z.string().min(1).max(200),
  participants: z.array(z.object({ phone: digits, name: z.string().optional() })).max(1000),
});

/** `/_sim/numbers`: which numbers have an account on the network. */
export const NumbersBody = z.object({
  unregistered: z
    .array(z.string().regex(/^\d{1,20}$/))
    .max(1000)
    .optional(),
  registered: z
    .array(z.string().regex(/^\d{1,20}$/))
    .max(1000)
    .optional(),
});

/** `/_sim/receipt`: the recipient of a sent message got it or read it. */
export const ReceiptBody = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  status: z.enum(['delivered', 'read']),
});
