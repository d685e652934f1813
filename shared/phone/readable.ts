import { e164 } from './number.ts';

/*
 * The forms that need the numbering plan (libphonenumber-js metadata, about 120 KiB). In a file of its
 * own so that code that only handles digits and JIDs (the connection host) does not load it, and
 * loaded on first use so that the API's cold start does not read it either.
 */

export interface NumberingPlan {
  /** Digits with country code → the spaced international form `+91 98765 43210`; unknown plans → `+<digits>`. */
  readable(digits: string): string;
  /** The calling code of a number with country code, e.g. `91`. */
  callingCode(digits: string): string | undefined;
}

let loading: Promise<NumberingPlan> | undefined;

/** The numbering plan, imported once per process. */
export function numberingPlan(): Promise<NumberingPlan> {
  loading ??= import('libphonenumber-js').then(({ parsePhoneNumberFromString: parse }) => ({
    readable(digits) {
      const parsed = parse(e164(digits));
      return parsed?.isPossible() ? parsed.formatInternational() : e164(digits);
    },
    callingCode: (digits) => parse(e164(digits))?.countryCallingCode,
  }));
  return loading;
}
