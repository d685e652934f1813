import { z } from '@hono/zod-openapi';

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

/** A phone number in any common notation → digits; JID suffixes are accepted. */
export const PhoneDigits = z
  .string()
  .trim()
  .max(64)
  .transform((v) => v.replace(/@(s\.whatsapp\.net|c\.us)$/, '').replace(/[\s+\-().]/g, ''))
  .pipe(z.string().regex(/^\d{4,15}$/, 'a phone number (digits, with or without country code)'));
