import { z } from '@hono/zod-openapi';

/**
 * A recipient as users write it (`+91 98765-43210`, `919876543210@s.whatsapp.net`) → digits with
 * country code. Group chats are not a send target here.
 */
export const Recipient = z
  .string()
  .trim()
  .max(64)
  .transform((v) => v.replace(/@(s\.whatsapp\.net|c\.us)$/, '').replace(/[\s+\-().]/g, ''))
  .pipe(
    z.string().regex(/^\d{7,15}$/, 'recipient must be a phone number with country code (7 to 15 digits)'),
  );
