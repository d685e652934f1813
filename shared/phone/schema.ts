import { z } from '@hono/zod-openapi';
import { isGroupJid, writtenGroupJid } from './jid.ts';
import {
  isPhoneDigits,
  NATIONAL_MIN_DIGITS,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  writtenDigits,
} from './number.ts';

const FULL = `a phone number with country code (${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits)`;
const NATIONAL = `a phone number, with or without country code (${NATIONAL_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits)`;
const GROUP = 'a group id (<id>@g.us)';

/**
 * A request field that holds a phone number as people write it (`+91 98765-43210`, `919876543210`,
 * `919876543210@s.whatsapp.net`) → digits with country code; number.ts has the length rule. With
 * `national`, a number without its country code is taken too: only lookups, which then try the
 * calling codes they know.
 */
export const phoneNumberInput = (opt: { national?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(64)
    .transform(writtenDigits)
    .pipe(z.string().refine((d) => isPhoneDigits(d, opt), opt.national ? NATIONAL : FULL));

/** A group id, with or without `@g.us` → `<id>@g.us`. */
export const groupIdInput = () =>
  z
    .string()
    .trim()
    .max(100)
    .transform((v, ctx) => writtenGroupJid(v) ?? fail(ctx, GROUP));

/** A chat to act on (pin, react): a phone number → digits, or a group (`<id>@g.us`) as it is. */
export const chatInput = () =>
  z
    .string()
    .trim()
    .max(100)
    .transform((v, ctx) => {
      if (isGroupJid(v)) return writtenGroupJid(v) ?? fail(ctx, GROUP);
      const digits = writtenDigits(v);
      return isPhoneDigits(digits) ? digits : fail(ctx, `${FULL} or ${GROUP}`);
    });

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}
