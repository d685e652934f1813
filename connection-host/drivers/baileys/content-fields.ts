import { getContentType, type proto } from '@whiskeysockets/baileys';
import { contactsSummary, type InboundMessage, locationSummary } from '#shared/messages/content';
import { fromVCard } from '#shared/messages/vcard';

/**
 * A message's content (the protobuf, unwrapped) → our kind and text fields: what every received,
 * own and history message is made of (normalise.ts), and what tells a chat message from a protocol one.
 */

/** The content fields of a message as we store them. */
export type ContentFields = Pick<
  InboundMessage,
  'kind' | 'text' | 'caption' | 'fileName' | 'mimetype' | 'location' | 'contacts' | 'poll' | 'listReply'
>;

/** The cards of contact messages; a vCard that names nobody and no number is left out. */
function cardsOf(messages: Array<proto.Message.IContactMessage | null | undefined>): ContentFields {
  const contacts = messages.flatMap((m) => {
    const card = m?.vcard ? fromVCard(m.vcard, m.displayName ?? undefined) : undefined;
    if (card) return [card];
    return m?.displayName ? [{ name: m.displayName, phones: [] }] : [];
  });
  return { kind: 'contact', text: contactsSummary(contacts), contacts };
}

/** A poll as it was created; `selectableOptionsCount` 1 is a single choice, 0 (or more) several. */
function pollOf(p: proto.Message.IPollCreationMessage | null | undefined): ContentFields {
  const question = p?.name ?? '';
  const options = (p?.options ?? []).map((o) => o.optionName ?? '');
  return {
    kind: 'poll',
    text: question,
    poll: { question, options, multiple: p?.selectableOptionsCount !== 1 },
  };
}

/** Kind and text fields from (unwrapped) content; undefined for protocol-only messages. */
export function contentFields(content: proto.IMessage | undefined): ContentFields | undefined {
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
        text: locationSummary({ latitude, longitude }),
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
