import { z } from '@hono/zod-openapi';
import { chatInput, phoneNumberInput } from '#shared/phone/schema';

export const MAX_LIMIT = 500;

/** `limit` from the query string: a positive integer, `fallback` when absent, capped at 500. */
export const Limit = (fallback: number) =>
  z.coerce
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .optional()
    .transform((v) => Math.min(v ?? fallback, MAX_LIMIT))
    .openapi({ type: 'integer', default: fallback, maximum: MAX_LIMIT });

/** A number to look up, with or without country code, in any common notation → digits. */
export const PhoneDigits = phoneNumberInput({ national: true });

/** A chat as history names it: digits (with country code), `<id>@g.us`, or `<lid>@lid` for a sender known only by LID. */
export const HistoryChat = z
  .union([z.string().regex(/^\d{5,20}@lid$/), chatInput()])
  .openapi({ description: 'The chat: a phone number with country code, <id>@g.us, or <lid>@lid' });
