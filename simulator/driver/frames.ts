import { contactsSummary, type InboundMessage, locationSummary } from '#shared/messages/content';
import { fromVCard } from '#shared/messages/vcard';
import { groupJid, lidJid } from '#shared/phone/jid';
import type { DriverEvents, LinkEnd } from '../../connection-host/drivers/driver.ts';
import { type Frame, type MessageFrame, MessageKind } from '../protocol.ts';

/** One driver event as data: the callback's name and its arguments. */
export type DriverEvent = {
  [K in keyof DriverEvents]: { name: K; args: Parameters<DriverEvents[K]> };
}[keyof DriverEvents];

/** What a frame asks of the link: most frames are one event; the others need the link's I/O first. */
export type FrameStep =
  | { step: 'report'; event: DriverEvent }
  /** Linking finished: keep the token (fenced) so the next connect logs in without a QR. */
  | { step: 'store-creds'; creds: { token: string; mobile: string } }
  /** The network closed the link; after a logout its token is worthless and is forgotten. */
  | { step: 'end'; end: LinkEnd; forgetCreds: boolean }
  /** A message; its media, if any, is fetched before it is reported. */
  | { step: 'inbound'; message: Omit<InboundMessage, 'mediaKey'>; mediaUrl?: string }
  /** The phone's history: reported only to a session that asked for it, within its days. */
  | { step: 'history'; messages: Array<Omit<InboundMessage, 'mediaKey'>> }
  /** Nothing to report: the network's ack of our own send (the host reports `sent` when the send resolves). */
  | { step: 'ignore' };

/** Our kind of a frame's `kind`: one a simulated contact sends, else `unknown`. */
const kindOf = (kind: string) => MessageKind.options.find((k) => k === kind) ?? 'unknown';

/** The data of a location, contact or poll frame, with the summary text the Baileys driver gives too. */
function structuredOf(f: MessageFrame): Partial<InboundMessage> | undefined {
  if (f.kind === 'location' && f.location) {
    return { text: locationSummary(f.location), location: f.location };
  }
  if (f.kind === 'contact' && f.contacts) {
    const contacts = f.contacts.map((c) => fromVCard(c.vcard, c.name) ?? { name: c.name, phones: [] });
    return { text: contactsSummary(contacts), contacts };
  }
  if (f.kind === 'poll' && f.poll) return { text: f.poll.question, poll: f.poll };
  return undefined;
}

/** The network's frame in our words. Pure: no I/O, no state. */
export function stepOf(f: Frame): FrameStep {
  switch (f.type) {
    case 'qr':
      return report({ name: 'onQr', args: [f.qr] });
    case 'pairing-code':
      return report({ name: 'onPairingCode', args: [f.code] });
    case 'linked':
      return { step: 'store-creds', creds: { token: f.token, mobile: f.mobile } };
    case 'open':
      return report({ name: 'onOpen', args: [{ mobile: f.mobile }] });
    case 'close':
      return {
        step: 'end',
        end: f.reason === 'restart' ? { kind: 'restart' } : { kind: f.reason, reason: f.detail },
        forgetCreds: f.reason === 'logged_out',
      };
    case 'message':
      return { step: 'inbound', message: inboundOf(f), mediaUrl: f.mediaUrl };
    case 'change':
      return report({
        name: 'onMessageChange',
        args: [
          {
            messageId: f.id,
            chatId: f.from,
            change: f.change,
            ...(f.text !== undefined ? { text: f.text } : {}),
            fromMe: false,
          },
        ],
      });
    case 'history':
      return { step: 'history', messages: f.messages.map((m) => inboundOf(m)) };
    case 'call':
      return report({
        name: 'onCall',
        args: [
          {
            callId: f.callId,
            from: f.from,
            video: f.video,
            group: false,
            status: f.status,
            timestampMs: f.timestampMs,
          },
        ],
      });
    case 'own-message':
      return report({
        name: 'onOwnMessage',
        args: [
          {
            id: f.id,
            chatId: f.to,
            kind: kindOf(f.kind),
            text: f.kind === 'text' ? f.text : undefined,
            caption: f.kind !== 'text' ? f.text : undefined,
            timestampMs: f.timestampMs,
          },
        ],
      });
    case 'poll-vote':
      return report({
        name: 'onPollVote',
        args: [
          {
            pollId: f.pollId,
            chatId: f.groupId ? groupJid(f.groupId) : f.from,
            voterPhone: f.from,
            options: f.options,
            timestampMs: f.timestampMs,
          },
        ],
      });
    case 'receipt':
      return f.status === 'sent' ? { step: 'ignore' } : report({ name: 'onReceipt', args: [f.id, f.status] });
    case 'lid-mapping':
      return report({ name: 'onLidMapping', args: [f.lid, f.phone] });
    case 'contacts':
      return report({ name: 'onContacts', args: [f.contacts] });
    case 'group':
      return report({
        name: 'onGroup',
        args: [{ groupId: groupJid(f.groupId), subject: f.subject, participants: f.participants }],
      });
  }
}

/** A message frame as our inbound message; a sender hidden behind a LID chats as `<lid>@lid`. */
export function inboundOf(f: MessageFrame): Omit<InboundMessage, 'mediaKey'> {
  const group = f.groupId ? groupJid(f.groupId) : undefined;
  const structured = structuredOf(f);
  return {
    id: f.id,
    chatId: group ?? (f.from || lidJid(f.lid ?? '')),
    senderPhone: f.from || null,
    senderLid: f.lid,
    senderName: f.name,
    groupId: group,
    kind: kindOf(f.kind),
    text: f.kind === 'text' ? f.text : undefined,
    caption: f.kind !== 'text' && !structured ? f.text : undefined,
    fileName: f.fileName,
    mimetype: f.mimetype,
    timestampMs: f.timestampMs,
    ...(f.listReply ? { listReply: f.listReply } : {}),
    ...(structured ?? {}),
  };
}

/** Calls the event's callback. */
export function deliver(events: DriverEvents, e: DriverEvent): void {
  // The name and its arguments come as a pair; TypeScript cannot follow that through a union.
  (events[e.name] as (...args: DriverEvent['args']) => void)(...e.args);
}

const report = (event: DriverEvent): FrameStep => ({ step: 'report', event });
