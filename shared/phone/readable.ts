import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { e164 } from './number.ts';

/*
 * The forms that need the numbering plan (libphonenumber-js metadata). In a file of its own so that
 * code that only handles digits and JIDs (the connection host) does not load it.
 */

/** Digits with country code → the spaced international form `+91 98765 43210`; unknown plans → `+<digits>`. */
export function readableNumber(digits: string): string {
  const parsed = parsePhoneNumberFromString(e164(digits));
  return parsed?.isPossible() ? parsed.formatInternational() : e164(digits);
}

/** The calling code of a number with country code, e.g. `91`. */
export function callingCodeOf(digits: string): string | undefined {
  return parsePhoneNumberFromString(e164(digits))?.countryCallingCode;
}
