import {
  type Contact,
  extractMessageContent,
  type GroupMetadata,
  getContentType,
  isHostedLidUser,
  isHostedPnUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  proto,
  type WAMessage,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import {
  DECRYPT_FAILED,
  type InboundKind,
  type InboundMessage,
  type OwnMessage,
} from '#shared/messages/content';
import { fromVCard } from '#shared/messages/vcard';
import { chatIdOf, groupJid, isUserJid } from '#shared/phone/jid';

/** Network → our shapes. JIDs and LIDs never leave this folder: phones are digits, LIDs their user part. */

const userOf = (jid: string | null | undefined): string | undefined =>
  jid ? jidDecode(jid)?.user : undefined;
const isPn = (jid: string | null | undefined): jid is string =>
  !!jid && (isPnUser(jid) === true || isHostedPnUser(jid) === true || isUserJid(jid));
const isLid = (jid: string | null | undefined): jid is string =>
  !!jid && (isLidUser(jid) === true || isHostedLidUser(jid) === true);

/** Digits of a phone-number JID (`919876543210:3@s.whatsapp.net` → `919876543210`). */
export function phoneOfJid(jid: string | null | undefined): string | undefined {
  const user = isPn(jid) ? userOf(jid) : undefined;
  return user && /^\d+$/.test(user) ? user : undefined;
}

/** User part of a LID JID (`123456789012345@lid` → `123456789012345`). */
export function lidOfJid(jid: string | null | undefined): string | undefined {
  return isLid(jid) ? userOf(jid) : undefined;
}

/** Our group id: `<id>@g.us` with any device/agent suffix dropped. */
export function groupIdOfJid(jid: string): string {
  return groupJid(userOf(jid) ?? jid);
}

export interface NormalisedInbound {
  message: Omit<InboundMessage, 'mediaKey'>;
  /** Present when the message carries downloadable media. */
  media?: { mimetype: string; fileLength?: number };
  /** A LID ↔ phone pair learnt from the message key. */
  lidMapping?: { lid: string; phone: string };
}

/** Looks a LID (user part) up in what the session already knows; undefined when unknown. */
export type PhoneForLid = (lid: string) => string | undefined;

const MEDIA_KINDS = new Set<InboundKind>(['image', 'video', 'audio', 'voice', 'document', 'sticker']);

function toMs(ts: WAMessage['messageTimestamp']): number {
  if (ts === null || ts === undefined) return Date.now();
  const n = typeof ts === 'number' ? ts : ts.toNumber();
  return n > 0 ? n * 1000 : Date.now();
}

type Fields = Pick<
  InboundMessage,
  'kind' | 'text' | 'caption' | 'fileName' | 'mimetype' | 'location' | 'contacts' | 'poll' | 'listReply'
>;

/** The cards of contact messages; a vCard that names nobody and no number is left out. */
function cardsOf(messages: Array<proto.Message.IContactMessage | null | undefined>): Fields {
  const contacts = messages.flatMap((m) => {
    const card = m?.vcard ? fromVCard(m.vcard, m.displayName ?? undefined) : undefined;
    if (card) return [card];
    return m?.displayName ? [{ name: m.displayName, phones: [] }] : [];
  });
  return { kind: 'contact', text: contacts.map((c) => c.name).join(', '), contacts };
}

/** A poll as it was created; `selectableOptionsCount` 1 is a single choice, 0 (or more) several. */
function pollOf(p: proto.Message.IPollCreationMessage | null | undefined): Fields {
  const question = p?.name ?? '';
  const options = (p?.options ?? []).map((o) => o.optionName ?? '');
  return {
    kind: 'poll',
    text: question,
    poll: { question, options, multiple: p?.selectableOptionsCount !== 1 },
  };
}

/** Kind and text fields from (unwrapped) content; undefined for protocol-only messages. */
export function contentFields(content: proto.IMessage | undefined): Fields | undefined {
  const type = getContentType(content);
  if (!content || !type) return undefined;
  const c = content;
  switch (type) {
    case 'conversation':
      return { kind: 'text', text: c.conversation ?? '' };
    case 'extendedTextMessage':
      return { kind: 'text', text: c.extendedTextMessage?.text ?? '' };
    case 'imageMessage':
      return { kind: 'image', caption: c.imageMessage?.caption ?? undefined, mimetype: mime(c.imageMessage) };
    case 'videoMessage':
    case 'ptvMessage': {
      const v = c.videoMessage ?? c.ptvMessage;
      return { kind: 'video', caption: v?.caption ?? undefined, mimetype: mime(v) };
    }
    case 'audioMessage':
      return { kind: c.audioMessage?.ptt ? 'voice' : 'audio', mimetype: mime(c.audioMessage) };
    case 'documentMessage': {
      const d = c.documentMessage;
      return {
        kind: 'document',
        caption: d?.caption ?? undefined,
        fileName: d?.fileName ?? undefined,
        mimetype: mime(d),
      };
    }
    case 'stickerMessage':
      return { kind: 'sticker', mimetype: mime(c.stickerMessage) };
    case 'locationMessage':
    case 'liveLocationMessage': {
      const l = c.locationMessage ?? c.liveLocationMessage;
      const latitude = l?.degreesLatitude ?? 0;
      const longitude = l?.degreesLongitude ?? 0;
      const place = c.locationMessage;
      return {
        kind: 'location',
        text: `${latitude},${longitude}`,
        location: {
          latitude,
          longitude,
          ...(place?.name ? { name: place.name } : {}),
          ...(place?.address ? { address: place.address } : {}),
        },
      };
    }
    case 'contactMessage':
      return cardsOf([c.contactMessage]);
    case 'contactsArrayMessage':
      return cardsOf(c.contactsArrayMessage?.contacts ?? []);
    case 'pollCreationMessage':
      return pollOf(c.pollCreationMessage);
    case 'pollCreationMessageV2':
      return pollOf(c.pollCreationMessageV2);
    case 'pollCreationMessageV3':
      return pollOf(c.pollCreationMessageV3);
    case 'reactionMessage':
      return { kind: 'reaction', text: c.reactionMessage?.text ?? '' };
    case 'buttonsResponseMessage':
      return { kind: 'text', text: c.buttonsResponseMessage?.selectedDisplayText ?? '' };
    case 'listResponseMessage': {
      // The row's title is the text; its id (what the list was sent with) tells the choice apart.
      const r = c.listResponseMessage;
      const title = r?.title ?? '';
      const id = r?.singleSelectReply?.selectedRowId;
      return {
        kind: 'text',
        text: title,
        ...(id
          ? { listReply: { id, title, ...(r?.description ? { description: r.description } : {}) } }
          : {}),
      };
    }
    case 'templateButtonReplyMessage':
      return { kind: 'text', text: c.templateButtonReplyMessage?.selectedDisplayText ?? '' };
    case 'protocolMessage':
    case 'messageContextInfo':
      return undefined;
    default:
      return { kind: 'unknown' };
  }
}

const mime = (m: { mimetype?: string | null } | null | undefined) => m?.mimetype ?? undefined;

/**
 * Baileys could not decrypt the message (or found nothing to decrypt in it): it upserts a stub with
 * the CIPHERTEXT stub type and no content, and has asked the sender for it again (a retry receipt,
 * or a placeholder resend request to the account's phone). The retried message comes with the same
 * id. A stub whose other part decrypted to chat content is that content, not a placeholder.
 */
function undecryptable(msg: WAMessage): boolean {
  if (msg.messageStubType !== proto.WebMessageInfo.StubType.CIPHERTEXT) return false;
  return !contentFields(extractMessageContent(msg.message));
}

/**
 * Converts one received message; one the device could not decrypt becomes a `decrypt_failed`
 * placeholder. Answers undefined for what is not a chat message for us: our own messages,
 * status/broadcast/newsletter traffic, protocol messages (revokes, edits, key exchange).
 */
export function normaliseMessage(
  msg: WAMessage,
  phoneForLid: PhoneForLid = () => undefined,
): NormalisedInbound | undefined {
  const key = msg.key;
  const remote = key.remoteJid;
  if (!remote || key.fromMe || !key.id) return undefined;
  if (isJidBroadcast(remote) || isJidNewsletter(remote)) return undefined;
  const fields: Fields | undefined = undecryptable(msg)
    ? { kind: DECRYPT_FAILED }
    : contentFields(extractMessageContent(msg.message));
  if (!fields) return undefined;

  const group = isJidGroup(remote) === true;
  const candidates = group
    ? [key.participant, key.participantAlt, msg.participant]
    : [remote, key.remoteJidAlt];
  const pnJid = candidates.find(isPn);
  const lidJid = candidates.find(isLid);
  const lid = lidOfJid(lidJid);
  const phone = phoneOfJid(pnJid) ?? (lid ? phoneForLid(lid) : undefined);

  let chatId: string;
  if (group) chatId = groupIdOfJid(remote);
  else if (phone) chatId = phone;
  else if (lid) chatId = chatIdOf({ kind: 'lid', lid });
  else return undefined;

  const message: Omit<InboundMessage, 'mediaKey'> = {
    id: key.id,
    chatId,
    senderPhone: phone ?? null,
    ...(lid ? { senderLid: lid } : {}),
    ...(msg.pushName ? { senderName: msg.pushName } : {}),
    ...(group ? { groupId: chatId } : {}),
    ...stripUndefined(fields),
    timestampMs: toMs(msg.messageTimestamp),
  };
  const out: NormalisedInbound = { message };
  if (MEDIA_KINDS.has(fields.kind)) {
    const inner = extractMessageContent(msg.message);
    const t = getContentType(inner);
    const media = t
      ? (inner?.[t] as { fileLength?: number | { toNumber(): number } | null } | undefined)
      : undefined;
    const len = media?.fileLength;
    out.media = {
      mimetype: fields.mimetype ?? 'application/octet-stream',
      ...(len !== null && len !== undefined
        ? { fileLength: typeof len === 'number' ? len : len.toNumber() }
        : {}),
    };
  }
  if (lid && pnJid) out.lidMapping = { lid, phone: phoneOfJid(pnJid) ?? '' };
  return out;
}

/**
 * One of the account's own messages in a one-to-one chat (typed on the business's phone, or our own
 * send echoed back: the events consumer tells them apart by id). Answers undefined for anything else:
 * others' messages, groups, status/broadcast/newsletter traffic, protocol messages.
 */
export function normaliseOwnMessage(
  msg: WAMessage,
  phoneForLid: PhoneForLid = () => undefined,
): OwnMessage | undefined {
  const key = msg.key;
  const remote = key.remoteJid;
  if (!remote || !key.fromMe || !key.id) return undefined;
  if (isJidBroadcast(remote) || isJidNewsletter(remote) || isJidGroup(remote)) return undefined;
  const fields = contentFields(extractMessageContent(msg.message));
  if (!fields) return undefined;
  const candidates = [remote, key.remoteJidAlt];
  const lid = lidOfJid(candidates.find(isLid));
  const phone = phoneOfJid(candidates.find(isPn)) ?? (lid ? phoneForLid(lid) : undefined);
  const chatId = phone ?? (lid ? chatIdOf({ kind: 'lid', lid }) : undefined);
  if (!chatId) return undefined;
  return stripUndefined({
    id: key.id,
    chatId,
    kind: fields.kind,
    text: fields.text,
    caption: fields.caption,
    timestampMs: toMs(msg.messageTimestamp),
  });
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** What the network said about one of our own messages after it took it (docs/events.md). */
export type SendOutcome = { status: 'delivered' | 'read' } | { status: 'failed'; reason: string };

/**
 * What a status of our own message tells the host. The server ack is not reported (the host reports
 * `sent` when `send` resolves); an error ack carries the network's error code as its stub parameter.
 */
export function outcomeOfStatus(
  status: number | null | undefined,
  stubParameters?: readonly string[] | null,
): SendOutcome | undefined {
  const S = proto.WebMessageInfo.Status;
  switch (status) {
    case S.ERROR: {
      const code = stubParameters?.[0];
      return {
        status: 'failed',
        reason: code ? `network refused the message (error ${code})` : 'network refused the message',
      };
    }
    case S.DELIVERY_ACK:
      return { status: 'delivered' };
    case S.READ:
    case S.PLAYED:
      return { status: 'read' };
    default:
      return undefined;
  }
}

/** A `messages.update` for one of our own messages; others' messages are not ours to report. */
export function outcomeOfUpdate(u: WAMessageUpdate): SendOutcome | undefined {
  if (!u.key.fromMe || !u.key.id) return undefined;
  return outcomeOfStatus(u.update.status, u.update.messageStubParameters);
}

/** Our delivery status from a per-user receipt (groups). */
export function receiptOfUserReceipt(r: proto.IUserReceipt): 'delivered' | 'read' | undefined {
  const set = (t: number | { toNumber(): number } | null | undefined) =>
    t !== null && t !== undefined && (typeof t === 'number' ? t : t.toNumber()) > 0;
  if (set(r.readTimestamp) || set(r.playedTimestamp)) return 'read';
  if (set(r.receiptTimestamp)) return 'delivered';
  return undefined;
}

/** Contacts with a known phone number; LID-only contacts are left out (their mapping arrives later). */
export function normaliseContacts(
  list: Array<Partial<Contact>>,
  phoneForLid: PhoneForLid = () => undefined,
): Array<{ phone: string; name?: string; lid?: string }> {
  const out: Array<{ phone: string; name?: string; lid?: string }> = [];
  for (const c of list) {
    const lid = lidOfJid(c.id) ?? lidOfJid(c.lid);
    const phone = phoneOfJid(c.id) ?? phoneOfJid(c.phoneNumber) ?? (lid ? phoneForLid(lid) : undefined);
    if (!phone) continue;
    const name = c.name ?? c.notify ?? c.verifiedName ?? undefined;
    out.push({ phone, ...(name ? { name } : {}), ...(lid ? { lid } : {}) });
  }
  return out;
}

/** A group with the participants whose phone number is known. */
export function normaliseGroup(g: GroupMetadata, phoneForLid: PhoneForLid = () => undefined) {
  return {
    groupId: groupIdOfJid(g.id),
    subject: g.subject ?? '',
    participants: normaliseContacts(g.participants, phoneForLid).map(({ phone, name }) => ({
      phone,
      ...(name ? { name } : {}),
    })),
  };
}
