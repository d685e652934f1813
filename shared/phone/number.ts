import { phoneOfJid } from './jid.ts';

/**
 * Phone numbers are stored and passed as digits with the country code, no `+`: `919876543210`.
 *
 * One length rule everywhere: a number with its country code has 7 to 15 digits. E.164 allows at most
 * 15; the shortest numbers in use (Niue, Saint Helena: `+683 4002`) have 7. Only a lookup also takes a
 * national number (no country code), which has at least 4 digits.
 */
export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;
export const NATIONAL_MIN_DIGITS = 4;

/** Every digit of the text and nothing else: for identifiers that may be a number in any notation. */
export const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Whether `digits` is a phone number with country code under the length rule. */
export function isPhoneDigits(digits: string, opt: { national?: boolean } = {}): boolean {
  const min = opt.national ? NATIONAL_MIN_DIGITS : PHONE_MIN_DIGITS;
  return /^\d+$/.test(digits) && digits.length >= min && digits.length <= PHONE_MAX_DIGITS;
}

/**
 * A number as people write it → digits: `+`, spaces, dashes, dots and brackets are dropped, and a
 * user JID (`919876543210@s.whatsapp.net`, legacy `@c.us`) gives its phone. Anything else left over
 * (letters, another kind of JID) keeps it from being digits; the length is not checked here.
 */
export function writtenDigits(text: string): string {
  const t = text.trim();
  return (phoneOfJid(t) ?? t).replace(/[\s+\-().]/g, '');
}

/** The number in E.164 (`+919876543210`). */
export const e164 = (digits: string) => `+${digits}`;
