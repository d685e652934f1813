import { isHostedLidUser, isHostedPnUser, isLidUser, isPnUser, jidDecode } from '@whiskeysockets/baileys';
import { groupJid, isUserJid } from '#shared/phone/jid';

/**
 * The network's addresses (JIDs) → ours: phones are digits, LIDs their user part, groups
 * `<id>@g.us`. Never split a JID by hand: Baileys' decoders know the device and agent suffixes.
 */

const userOf = (jid: string | null | undefined): string | undefined =>
  jid ? jidDecode(jid)?.user : undefined;
/** A phone-number JID (of a user or a hosted user). */
export const isPn = (jid: string | null | undefined): jid is string =>
  !!jid && (isPnUser(jid) === true || isHostedPnUser(jid) === true || isUserJid(jid));
/** A LID JID (of a user or a hosted user). */
export const isLid = (jid: string | null | undefined): jid is string =>
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
