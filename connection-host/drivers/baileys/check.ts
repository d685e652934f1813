import type { WASocket } from '@whiskeysockets/baileys';
import type { NumberCheck } from '#shared/commands/types';
import { phoneOfJid, userJid } from '#shared/phone/jid';

type OnWhatsApp = Pick<WASocket, 'onWhatsApp'>;

/** The accounts the network found, as `jid`s; Baileys answers only the numbers that exist. */
async function ask(sock: OnWhatsApp, numbers: string[]): Promise<string[]> {
  const found = (await sock.onWhatsApp(...numbers.map((n) => userJid(n)))) ?? [];
  return found.filter((f) => f.exists).map((f) => f.jid);
}

/**
 * Which numbers have an account (one USync contact query). The network answers with the account's
 * JID, not the number asked, and it may rewrite a number (a mobile prefix some countries added
 * later): an answer that matches no number asked sends the unmatched numbers again one at a time,
 * so each answer is tied to its number.
 */
export async function checkNumbers(sock: OnWhatsApp, numbers: string[]): Promise<NumberCheck[]> {
  const jids = await ask(sock, numbers);
  const byPhone = new Map(jids.map((jid) => [phoneOfJid(jid), jid]));
  const unmatched = jids.filter((jid) => !numbers.includes(phoneOfJid(jid) ?? ''));
  const out: NumberCheck[] = [];
  for (const number of numbers) {
    let jid = byPhone.get(number);
    if (!jid && unmatched.length > 0) [jid] = await ask(sock, [number]);
    out.push({ number, exists: jid !== undefined, jid: jid ?? null });
  }
  return out;
}
