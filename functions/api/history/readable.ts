import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { phoneOfLid } from '#shared/contacts/repository';
import type { StoredMessage } from '#shared/messages/message';

/** Digits with country code → `+91 98765 43210`; digits the metadata does not know → `+<digits>`. */
export function readableNumber(digits: string): string {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return parsed?.isPossible() ? parsed.formatInternational() : `+${digits}`;
}

/** The calling code of a number with country code, e.g. `91`. */
export function callingCodeOf(digits: string): string | undefined {
  return parsePhoneNumberFromString(`+${digits}`)?.countryCallingCode;
}

/**
 * Who a chat or sender is, in our words: a phone number (digits), a group, or a LID whose phone the
 * network has not revealed. An unresolved LID is never shown as a phone number.
 */
export type Party =
  | { kind: 'phone'; digits: string }
  | { kind: 'group'; id: string }
  | { kind: 'lid'; lid: string };

export const partyJid = (p: Party) =>
  p.kind === 'phone' ? `${p.digits}@s.whatsapp.net` : p.kind === 'group' ? `${p.id}@g.us` : `${p.lid}@lid`;

export const partyReadable = (p: Party) =>
  p.kind === 'phone' ? readableNumber(p.digits) : p.kind === 'group' ? `${p.id}@g.us` : `lid:${p.lid}`;

/** Digits for payloads that carry digits; `lid:<digits>` when unresolved. */
export const partyDigits = (p: Party) =>
  p.kind === 'phone' ? p.digits : p.kind === 'group' ? p.id : `lid:${p.lid}`;

/** LID → phone lookups for one request, each LID read once. */
export class LidResolver {
  private readonly cache = new Map<string, Promise<string | undefined>>();
  constructor(private readonly tenantId: string) {}

  phoneOf(sessionId: string, lid: string): Promise<string | undefined> {
    const key = `${sessionId}#${lid}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = phoneOfLid(this.tenantId, sessionId, lid);
      this.cache.set(key, hit);
    }
    return hit;
  }

  /** A chat id (`<digits>`, `<id>@g.us`, `<lid>@lid`) as a party. */
  async chat(sessionId: string, chatId: string): Promise<Party> {
    if (chatId.endsWith('@g.us')) return { kind: 'group', id: chatId.slice(0, -'@g.us'.length) };
    if (chatId.endsWith('@lid')) return this.lid(sessionId, chatId.slice(0, -'@lid'.length));
    return { kind: 'phone', digits: chatId.replace(/@.*$/, '') };
  }

  /** The sender of an inbound message; the session's own number for an outbound one. */
  async sender(m: StoredMessage): Promise<Party | undefined> {
    if (m.senderPhone) return { kind: 'phone', digits: m.senderPhone };
    if (m.senderLid) return this.lid(m.sessionId, m.senderLid.replace(/@lid$/, ''));
    return undefined;
  }

  private async lid(sessionId: string, lid: string): Promise<Party> {
    const phone = await this.phoneOf(sessionId, lid);
    return phone ? { kind: 'phone', digits: phone } : { kind: 'lid', lid };
  }
}

/** The text a history line shows: the text, else the caption, else the stream's label for the media. */
export { messageLabel as displayText } from '#shared/stream/payload';
