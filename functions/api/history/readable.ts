import { bareLid, LidLookup } from '#shared/contacts/lid-cache';
import type { StoredMessage } from '#shared/messages/message';
import { type Chat, chatOf, groupJid, jidOfChat } from '#shared/phone/jid';
import type { NumberingPlan } from '#shared/phone/readable';

/**
 * Who a chat or sender is, in our words: a phone number (digits), a group, or a LID whose phone the
 * network has not revealed. An unresolved LID is never shown as a phone number.
 */
export type Party = Chat;

export const partyJid = jidOfChat;

export const partyReadable = (p: Party, plan: NumberingPlan) =>
  p.kind === 'phone' ? plan.readable(p.digits) : p.kind === 'group' ? groupJid(p.id) : `lid:${p.lid}`;

/** Digits for payloads that carry digits; `lid:<digits>` when unresolved. */
export const partyDigits = (p: Party) =>
  p.kind === 'phone' ? p.digits : p.kind === 'group' ? p.id : `lid:${p.lid}`;

/** Chats and senders as parties for one request, each LID read once. */
export class LidResolver extends LidLookup {
  /** A chat id (`<digits>`, `<id>@g.us`, `<lid>@lid`) as a party. */
  async chat(sessionId: string, chatId: string): Promise<Party> {
    const chat = chatOf(chatId) ?? { kind: 'phone', digits: chatId };
    return chat.kind === 'lid' ? this.lid(sessionId, chat.lid) : chat;
  }

  /** The sender of an inbound message; the session's own number for an outbound one. */
  async sender(m: StoredMessage): Promise<Party | undefined> {
    if (m.senderPhone) return { kind: 'phone', digits: m.senderPhone };
    if (m.senderLid) return this.lid(m.sessionId, bareLid(m.senderLid));
    return undefined;
  }

  private async lid(sessionId: string, lid: string): Promise<Party> {
    const phone = await this.phoneOf(sessionId, lid);
    return phone ? { kind: 'phone', digits: phone } : { kind: 'lid', lid };
  }
}

/** The text a history line shows: the text, else the caption, else the stream's label for the media. */
export { messageLabel as displayText } from '#shared/stream/payload';
