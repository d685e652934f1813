import { type AnyMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys';
import { documentFileName, type List, type Location, type OutboundContent } from '#shared/messages/content';
import { toVCard } from '#shared/messages/vcard';
import {
  groupJid,
  isGroupJid,
  LEGACY_USER_SERVER,
  lidJid,
  parseJid,
  STATUS_JID,
  userJid,
} from '#shared/phone/jid';
import { isPhoneDigits, writtenDigits } from '#shared/phone/number';
import type { OutboundMedia } from '../driver.ts';

/** Our shapes → the network's. */

/** What the host's store knows of an earlier message (a subset of StoredMessage). */
export interface KnownMessage {
  kind: string;
  direction?: 'inbound' | 'outbound';
  chatId?: string;
  senderPhone?: string | null;
  senderLid?: string;
  text?: string;
  caption?: string;
  fileName?: string;
  mimetype?: string;
  /** A media message as it was sent (encoded proto.Message): see sentWire. */
  wire?: Uint8Array;
}

/**
 * The parts of a sent message that must be kept: a media message's upload reference (a retry
 * carries it again), a poll's creation message (its options; its secret is in messageContextInfo).
 */
const WIRE_FIELDS = [
  'pollCreationMessage',
  'pollCreationMessageV2',
  'pollCreationMessageV3',
  'imageMessage',
  'videoMessage',
  'audioMessage',
  'documentMessage',
  'documentWithCaptionMessage',
  'stickerMessage',
  'ptvMessage',
] as const;

/**
 * The encoded media message Baileys sent (url, directPath, mediaKey, hashes, caption…), or poll
 * (options and secret), or undefined for anything else. Stored, it lets a retry after a restart send
 * the very same message again without the bytes, and a poll's votes be decrypted (poll-votes.ts).
 */
export function sentWire(message: proto.IMessage | null | undefined): Uint8Array | undefined {
  if (!message) return undefined;
  const kept: proto.IMessage = {};
  let found = false;
  for (const f of WIRE_FIELDS) {
    if (message[f]) {
      (kept as Record<string, unknown>)[f] = message[f];
      found = true;
    }
  }
  if (!found) return undefined;
  if (message.messageContextInfo?.messageSecret && pollCreationOf(kept)) {
    kept.messageContextInfo = { messageSecret: message.messageContextInfo.messageSecret };
  }
  return proto.Message.encode(kept).finish();
}

/** The poll creation message in a message, whichever version the network used. */
export const pollCreationOf = (m: proto.IMessage | null | undefined) =>
  m?.pollCreationMessage ?? m?.pollCreationMessageV2 ?? m?.pollCreationMessageV3 ?? undefined;

/**
 * A recipient or chat in our form → JID: phone digits (any `+`, spaces, dashes dropped) become a
 * user JID, `<id>@g.us` stays a group, `<lid>@lid` (what we report for LID-only chats) stays a LID,
 * and `status` is the status broadcast.
 */
export function toJid(to: string): string {
  const t = to.trim();
  if (t === 'status' || t === STATUS_JID) return STATUS_JID;
  const jid = parseJid(t);
  if (jid) return jid.server === LEGACY_USER_SERVER ? userJid(jid.user, jid.device) : t;
  const digits = writtenDigits(t);
  if (!isPhoneDigits(digits)) throw new Error(`not a phone number or chat id: ${to}`);
  return userJid(digits);
}

/** A group id in our form (`<id>@g.us`, or the bare id) → group JID. */
export const toGroupJid = (groupId: string) => groupJid(groupId.trim());

/** Buttons are no longer deliverable to ordinary accounts: they go out as text with numbered options. */
export function buttonsAsText(text: string | undefined, buttons: OutboundContent['buttons']): string {
  const options = (buttons ?? []).map((b, i) => `${i + 1}. ${b.title}`);
  return [text ?? '', options.join('\n')].filter((s) => s.length > 0).join('\n\n');
}

function bytesOf(media: OutboundMedia | undefined, kind: string): Buffer {
  if (!media) throw new Error(`a ${kind} message needs its media bytes`);
  return Buffer.from(media.bytes.buffer, media.bytes.byteOffset, media.bytes.byteLength);
}

/** The part of the content a kind cannot go without (the API's schema requires it; commands are checked again here). */
function need<T>(part: T | undefined, kind: string): T {
  if (part === undefined) throw new Error(`a ${kind} message needs its ${kind} field`);
  return part;
}

function locationMessage(l: Location): proto.Message.ILocationMessage {
  return {
    degreesLatitude: l.latitude,
    degreesLongitude: l.longitude,
    ...opt('name', l.name),
    ...opt('address', l.address),
  };
}

const opt = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  value === undefined || value === '' ? {} : ({ [key]: value } as Record<K, V>);

/** Our outbound content (and the bytes the host fetched) → Baileys message content. */
export function toMessageContent(content: OutboundContent, media?: OutboundMedia): AnyMessageContent {
  const mimetype = content.mimetype ?? media?.mimetype;
  switch (content.kind) {
    case 'text':
      return { text: content.text ?? '' };
    case 'buttons':
      return { text: buttonsAsText(content.text, content.buttons) };
    case 'image':
      return {
        image: bytesOf(media, 'image'),
        ...opt('caption', content.caption ?? content.text),
        ...opt('mimetype', mimetype),
      };
    case 'video':
      return {
        video: bytesOf(media, 'video'),
        ...opt('caption', content.caption ?? content.text),
        ...opt('mimetype', mimetype),
      };
    case 'audio':
      return { audio: bytesOf(media, 'audio'), ptt: false, ...opt('mimetype', mimetype) };
    case 'voice':
      return {
        audio: bytesOf(media, 'voice'),
        ptt: true,
        mimetype: 'audio/ogg; codecs=opus',
        ...opt(
          'seconds',
          content.durationSeconds === undefined ? undefined : Math.round(content.durationSeconds),
        ),
      };
    case 'location':
      return { location: locationMessage(need(content.location, 'location')) };
    case 'contact': {
      const cards = need(content.contacts, 'contact');
      const [only, ...more] = cards;
      return {
        contacts: {
          displayName: only && !more.length ? only.name : `${cards.length} contacts`,
          contacts: cards.map((c) => ({ displayName: c.name, vcard: toVCard(c) })),
        },
      };
    }
    case 'sticker':
      return { sticker: bytesOf(media, 'sticker'), mimetype: 'image/webp' };
    case 'list':
      throw new Error('a list message is sent as the network message itself (rawMessage)');
    case 'poll': {
      const poll = need(content.poll, 'poll');
      // selectableCount 0 is the network's "any number of options"; 1 is a single choice.
      return { poll: { name: poll.question, values: poll.options, selectableCount: poll.multiple ? 0 : 1 } };
    }
    case 'pdf':
    case 'document': {
      const pdf = content.kind === 'pdf';
      return {
        document: bytesOf(media, content.kind),
        mimetype: pdf ? 'application/pdf' : (mimetype ?? 'application/octet-stream'),
        fileName: documentFileName(content.kind, content.fileName),
        ...opt('caption', content.caption ?? content.text),
      };
    }
  }
}

/**
 * The network message for a kind Baileys' content builder does not make (a list), sent as it is;
 * undefined for every other kind. A list is a single-select list message: the customer's choice
 * comes back as a list response carrying the row id (content-fields.ts).
 */
export function rawMessage(content: OutboundContent): proto.IMessage | undefined {
  if (content.kind !== 'list') return undefined;
  const list: List = need(content.list, 'list');
  return {
    listMessage: {
      description: list.body,
      buttonText: list.button,
      listType: proto.Message.ListMessage.ListType.SINGLE_SELECT,
      sections: list.sections.map((s) => ({
        ...opt('title', s.title),
        rows: s.rows.map((r) => ({ rowId: r.id, title: r.title, ...opt('description', r.description) })),
      })),
    },
  };
}

/** Minimal message content standing for a known message (quote previews, retries). */
export function knownToProto(m: KnownMessage): proto.IMessage {
  switch (m.kind) {
    case 'image':
      return { imageMessage: { caption: m.caption ?? null, mimetype: m.mimetype ?? null } };
    case 'video':
      return { videoMessage: { caption: m.caption ?? null, mimetype: m.mimetype ?? null } };
    case 'audio':
    case 'voice':
      return { audioMessage: { ptt: m.kind === 'voice', mimetype: m.mimetype ?? null } };
    case 'sticker':
      return { stickerMessage: { mimetype: m.mimetype ?? 'image/webp' } };
    case 'document':
    case 'pdf':
      return {
        documentMessage: {
          fileName: m.fileName ?? null,
          mimetype: m.mimetype ?? null,
          caption: m.caption ?? null,
        },
      };
    default:
      return { conversation: m.text ?? m.caption ?? '' };
  }
}

/** Content Baileys may re-encrypt when a recipient asks for a retry: text only (media cannot be rebuilt). */
export function retryContent(m: KnownMessage | undefined): proto.IMessage | undefined {
  if (!m || m.direction === 'inbound') return undefined;
  if (m.wire) {
    try {
      return proto.Message.decode(m.wire);
    } catch {
      return undefined;
    }
  }
  if (m.kind === 'text' || m.kind === 'buttons') return { conversation: m.text ?? '' };
  return undefined;
}

/** The key of an earlier message in a chat, as precise as what we know of it allows. */
export function keyOf(jid: string, messageId: string, known: KnownMessage | undefined): proto.IMessageKey {
  const fromMe = known?.direction === 'outbound';
  const group = isGroupJid(jid);
  let participant: string | undefined;
  if (group && !fromMe && known) {
    if (known.senderPhone) participant = userJid(known.senderPhone);
    else if (known.senderLid) participant = lidJid(known.senderLid);
  }
  return { remoteJid: jid, id: messageId, fromMe, ...(participant ? { participant } : {}) };
}

/** A stand-in for the quoted message: its key, and its content when the store knows it. */
export function quotedStub(jid: string, quotedId: string, known: KnownMessage | undefined): WAMessage {
  const key = keyOf(jid, quotedId, known);
  return {
    key,
    message: known ? knownToProto(known) : { conversation: '' },
    ...(key.participant ? { participant: key.participant } : {}),
  };
}
