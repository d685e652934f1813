import type { MessageStatus } from '../../events/types.ts';
import type { InboundKind } from '../../messages/content.ts';
import { toWamid } from '../../messages/wamid.ts';
import { GROUP_SERVER, parseJid } from '../../phone/jid.ts';

/**
 * Meta's webhook envelope for the `messages` field (docs/webhooks-cloud.md): one change per delivery,
 * `phone_number_id` being the session's mobid (what the Cloud-compatible send path takes in its path).
 */

export interface CloudSender {
  tenantId: string;
  /** The session's mobid. */
  phoneNumberId: string;
  /** The session's own number (digits), when linked. */
  displayPhoneNumber: string | null;
}

export interface CloudError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
}

const seconds = (ms: number) => String(Math.floor(ms / 1000));

function envelope<V extends object>(s: CloudSender, value: V) {
  return {
    object: 'whatsapp_business_account' as const,
    entry: [
      {
        id: s.tenantId,
        changes: [
          {
            field: 'messages' as const,
            value: {
              messaging_product: 'whatsapp' as const,
              metadata: {
                display_phone_number: s.displayPhoneNumber ?? '',
                phone_number_id: s.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

export interface CloudInbound {
  id: string;
  kind: InboundKind;
  /** Sender digits, or `<lid>@lid` when the network has not revealed the phone. */
  from: string;
  senderName?: string;
  groupId?: string;
  text?: string;
  caption?: string;
  fileName?: string;
  mimetype?: string;
  timestampMs: number;
  /** A choice from a list message: sent as Meta's `interactive` `list_reply`. */
  listReply?: { id: string; title: string; description?: string };
  /** Where the receiver can fetch the media (the message's own URL or a presigned link). */
  mediaUrl: string | null;
}

const MEDIA: Partial<Record<InboundKind, string>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  voice: 'audio',
  document: 'document',
  sticker: 'sticker',
};

/** The message object of one inbound message, in Meta's shape for its type. */
export function cloudMessage(m: CloudInbound): Record<string, unknown> {
  const base = {
    from: m.from,
    id: toWamid(m.id),
    timestamp: seconds(m.timestampMs),
    ...(m.groupId ? { group_id: m.groupId } : {}),
  };
  const media = MEDIA[m.kind];
  if (media) {
    // There is no media-by-id download on this service yet: `id` names the message's media and
    // `url` (an extension of ours) is where to fetch it.
    return {
      ...base,
      type: media,
      [media]: {
        id: m.id,
        ...(m.mimetype ? { mime_type: m.mimetype } : {}),
        ...(m.caption ? { caption: m.caption } : {}),
        ...(m.kind === 'document' && m.fileName ? { filename: m.fileName } : {}),
        ...(m.kind === 'voice' ? { voice: true } : {}),
        ...(m.mediaUrl ? { url: m.mediaUrl } : {}),
      },
    };
  }
  switch (m.kind) {
    case 'text':
      if (m.listReply) {
        const { id, title, description } = m.listReply;
        return {
          ...base,
          type: 'interactive',
          interactive: {
            type: 'list_reply',
            list_reply: { id, title, ...(description ? { description } : {}) },
          },
        };
      }
      return { ...base, type: 'text', text: { body: m.text ?? '' } };
    case 'location': {
      const [latitude, longitude] = (m.text ?? '').split(',').map(Number);
      return { ...base, type: 'location', location: { latitude, longitude } };
    }
    case 'contact':
      return {
        ...base,
        type: 'contacts',
        contacts: [{ name: { formatted_name: m.text ?? '' } }],
      };
    case 'reaction':
      // The network names the reacted message in a shape our normalised message does not keep.
      return { ...base, type: 'reaction', reaction: { emoji: m.text ?? '' } };
    default:
      return {
        ...base,
        type: 'unsupported',
        errors: [cloudErrorOf(131051, 'Unsupported message type', 'message type is not supported')],
      };
  }
}

/** `messages` with the sender in `contacts`, as Meta sends an inbound message. */
export function inboundEnvelope(s: CloudSender, m: CloudInbound) {
  return envelope(s, {
    contacts: [{ profile: { name: m.senderName ?? '' }, wa_id: m.from }],
    messages: [cloudMessage(m)],
  });
}

export interface CloudStatus {
  messageId: string;
  /** The chat the message went to: digits, `<id>@g.us` or `<lid>@lid`. */
  chatId: string;
  status: MessageStatus;
  reason?: string;
  atMs: number;
}

/** The statuses Meta reports; `queued` is ours alone (the message has not left). */
const REPORTED: ReadonlySet<MessageStatus> = new Set(['sent', 'delivered', 'read', 'failed']);

/** `statuses` for one of our messages; undefined for a status Meta has no word for. */
export function statusEnvelope(s: CloudSender, st: CloudStatus) {
  if (!REPORTED.has(st.status)) return undefined;
  const jid = parseJid(st.chatId);
  const group = jid?.server === GROUP_SERVER;
  return envelope(s, {
    statuses: [
      {
        id: toWamid(st.messageId),
        status: st.status,
        timestamp: seconds(st.atMs),
        recipient_id: group ? jid.user : st.chatId,
        ...(group ? { recipient_type: 'group' } : {}),
        ...(st.status === 'failed' ? { errors: [failureError(st.reason)] } : {}),
      },
    ],
  });
}

function cloudErrorOf(code: number, title: string, details: string): CloudError {
  return { code, title, message: `(#${code}) ${title}`, error_data: { details } };
}

/**
 * Why a message failed, as the Cloud code of the same meaning (docs/webhooks-cloud.md). The host's
 * reasons are sentences (connection-host/media.ts, drivers/baileys/outcomes.ts): matched here,
 * with a generic code for anything else. `details` always carries the sentence itself.
 */
const FAILURES: Array<{ test: RegExp; code: number; title: string }> = [
  // An error ack: the network (for the recipient) would not take the message.
  {
    test: /^network refused/,
    code: 131049,
    title: 'This message was not delivered to maintain healthy ecosystem engagement',
  },
  // The host could not fetch the media, or it was too large or of the wrong type (connection-host/media.ts).
  { test: /^media /, code: 131053, title: 'Media upload error' },
];

export function failureError(reason: string | undefined): CloudError {
  const details = reason ?? 'the message could not be sent';
  const hit = reason ? FAILURES.find((f) => f.test.test(reason)) : undefined;
  return hit
    ? cloudErrorOf(hit.code, hit.title, details)
    : cloudErrorOf(131000, 'Something went wrong', details);
}
