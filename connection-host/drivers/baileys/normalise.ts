import {
  type Contact,
  extractMessageContent,
  type GroupMetadata,
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys';
import {
  DECRYPT_FAILED,
  type InboundKind,
  type InboundMessage,
  type OwnMessage,
} from '#shared/messages/content';
import { chatIdOf } from '#shared/phone/jid';
import { type ContentFields, contentFields } from './content-fields.ts';
import { groupIdOfJid, isLid, isPn, lidOfJid, phoneOfJid } from './jids.ts';

/**
 * Network → our shapes: received and own messages, contacts, groups. JIDs and LIDs never leave
 * this folder (jids.ts); a message's content fields come from content-fields.ts, what the network
 * says of our own messages from outcomes.ts.
 */

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
  const fields: ContentFields | undefined = undecryptable(msg)
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
