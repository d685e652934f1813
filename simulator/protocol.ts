import { z } from 'zod';
import {
  CarriedLocation,
  CarriedPoll,
  InboundKind,
  type InboundMessage,
  List,
} from '#shared/messages/content';

/**
 * The simulated network's device protocol, as the host's simulator driver speaks it:
 * - `GET /_sim/device/:sessionId/link?method=qr|phone&phoneNumber=…` (with the `x-sim-token` header
 *   once linked) opens the device's link: an SSE stream of `Frame`s, one JSON frame per event;
 * - `POST /_sim/device/:sessionId/<request>` with a `DeviceRequests[request]` body is what it sends.
 * Nothing here is the network's state, so the driver depends on the protocol alone.
 */

export const DEVICE_TOKEN_HEADER = 'x-sim-token';

export type CloseReason = 'restart' | 'transient' | 'logged_out' | 'replaced';

/**
 * The kinds of message a contact sends on the simulated network: our inbound kinds but reactions
 * (not simulated) and what only our side makes (`unknown`, the undecryptable placeholder).
 */
export const MessageKind = InboundKind.exclude(['reaction', 'unknown', 'decrypt_failed']);

/** A contact card as the network carries it: a display name and a vCard. */
export const NetworkCard = z.object({ name: z.string(), vcard: z.string() });

/** A message to the account; its content fields are those of our `InboundMessage` (shared/messages/content.ts). */
export interface MessageFrame
  extends Pick<
    InboundMessage,
    'text' | 'caption' | 'fileName' | 'mimetype' | 'location' | 'poll' | 'listReply' | 'timestampMs'
  > {
  type: 'message';
  id: string;
  /** Sender's phone digits; empty when the network hides it behind `lid`. */
  from: string;
  lid?: string;
  name?: string;
  /** Group id without the `@g.us` suffix. */
  groupId?: string;
  /** A `MessageKind`; anything else is reported as `unknown`. */
  kind: string;
  mediaUrl?: string;
  contacts?: Array<z.infer<typeof NetworkCard>>;
}

/** A contact voted on a poll the account sent: the options it now chooses (none: vote withdrawn). */
export interface PollVoteFrame {
  type: 'poll-vote';
  /** The vote's own message id. */
  id: string;
  /** The poll's message id. */
  pollId: string;
  /** The voter's phone digits. */
  from: string;
  /** Group id without the `@g.us` suffix, for a poll in a group. */
  groupId?: string;
  options: string[];
  timestampMs: number;
}

/** The account's own phone sent a message to `to` (the network shows it to every linked device). */
export interface OwnMessageFrame {
  type: 'own-message';
  id: string;
  /** The customer's phone digits. */
  to: string;
  kind: string;
  text?: string;
  timestampMs: number;
}

/** The sender edited (`text`: the new text) or deleted for everyone a message it sent earlier. */
export interface ChangeFrame {
  type: 'change';
  /** The message changed. */
  id: string;
  /** The sender's phone digits. */
  from: string;
  change: 'edited' | 'deleted';
  text?: string;
}

/** A call to the account: it rings (`offer`), or a later step of the same call (`callId`). */
export interface CallFrame {
  type: 'call';
  callId: string;
  /** The caller's phone digits. */
  from: string;
  video: boolean;
  status: 'offer' | 'accepted' | 'rejected' | 'missed' | 'ended';
  timestampMs: number;
}

/** The phone's history sync at linking: messages contacts sent earlier (text only). */
export interface HistoryFrame {
  type: 'history';
  messages: MessageFrame[];
}

export type Frame =
  | { type: 'qr'; qr: string }
  | { type: 'pairing-code'; code: string }
  /** Linking finished: the device keeps `token` to log in again without a QR. */
  | { type: 'linked'; token: string; mobile: string }
  | { type: 'open'; mobile: string }
  | { type: 'close'; reason: CloseReason; detail: string }
  | MessageFrame
  | OwnMessageFrame
  | ChangeFrame
  | PollVoteFrame
  | CallFrame
  | HistoryFrame
  | { type: 'receipt'; id: string; status: 'sent' | 'delivered' | 'read' }
  | { type: 'lid-mapping'; lid: string; phone: string }
  | { type: 'contacts'; contacts: Array<{ phone: string; name?: string; lid?: string }> }
  | {
      type: 'group';
      groupId: string;
      subject: string;
      participants: Array<{ phone: string; name?: string }>;
    };

/** `POST …/send`: a message, reaction, pin or status story. The same id twice is one message. */
export const DeviceSend = z.object({
  token: z.string(),
  id: z.string().min(1).max(100),
  to: z.string().min(1).max(100),
  type: z.string(),
  text: z.string().optional(),
  caption: z.string().optional(),
  fileName: z.string().optional(),
  mimetype: z.string().optional(),
  durationMs: z.number().optional(),
  /** The message this one replies to. */
  quotedId: z.string().optional(),
  mediaBase64: z.string().optional(),
  location: CarriedLocation.optional(),
  /** Contact cards as the network carries them: a display name and a vCard each. */
  contacts: z.array(NetworkCard).optional(),
  poll: CarriedPoll.optional(),
  list: List.optional(),
});

/** At most this many message ids in one `ack`. */
export const ACK_MAX_IDS = 1_000;

/**
 * `POST …/ack`: the device has handed these messages on (the host's events queue or spool); the
 * network forgets them. A message not acknowledged is sent again, same id, on the next link.
 */
export const DeviceAck = z.object({
  token: z.string(),
  ids: z.array(z.string().min(1).max(100)).min(1).max(ACK_MAX_IDS),
});

/** `POST …/group`: group management; answered with `DeviceGroupReply`. */
export const DeviceGroupAction = z.object({
  token: z.string(),
  action: z.string(),
  groupId: z.string().optional(),
  subject: z.string().optional(),
  description: z.string().optional(),
  participants: z.array(z.string()).optional(),
});

export interface DeviceGroupReply {
  success: true;
  groupId: string;
  action: string;
}

/** What a device shows a chat it is in (`POST …/presence`). */
export const PresenceType = z.enum(['composing', 'recording', 'paused', 'available', 'unavailable']);
export type PresenceType = z.infer<typeof PresenceType>;

/** `POST …/read`: read receipts for received messages of chat `to`; `played` are the voice notes among them. */
export const DeviceRead = z.object({
  token: z.string(),
  to: z.string().min(1).max(100),
  ids: z.array(z.string().min(1).max(128)).min(1).max(100),
  played: z.array(z.string().min(1).max(128)).max(100),
});

/** `POST …/reject-call`: declines a call that rings the account (the caller sees it declined). */
export const DeviceRejectCall = z.object({ token: z.string(), callId: z.string().min(1).max(100) });

/** `POST …/check`: which numbers (digits) have an account; answered with `{success, numbers: [{number, exists, jid}]}`. */
export const DeviceCheck = z.object({
  token: z.string(),
  numbers: z
    .array(z.string().regex(/^\d{1,20}$/))
    .min(1)
    .max(100),
});

/** The body of each device request, by the last segment of its path. */
export interface DeviceRequests {
  send: z.input<typeof DeviceSend>;
  ack: z.input<typeof DeviceAck>;
  presence: { token: string; to: string; type: PresenceType };
  read: z.input<typeof DeviceRead>;
  check: z.input<typeof DeviceCheck>;
  group: z.input<typeof DeviceGroupAction>;
  'reject-call': z.input<typeof DeviceRejectCall>;
  probe: { token: string };
  logout: { token: string };
}
