import { z } from '@hono/zod-openapi';
import { type ApiKeyRecord, KEY_ID } from '#shared/auth/api-keys';

/** An API key as listings show it: never the key itself, only its first characters. */
export const ApiKeySchema = z
  .object({
    keyId: z.string(),
    label: z.string().optional(),
    prefix: z.string().optional().openapi({ description: 'The first 12 characters of the key (`wsm_…`)' }),
    status: z.enum(['active', 'revoked']),
    createdAt: z.string(),
    revokedAt: z.string().optional(),
  })
  .openapi('ApiKey');

export const KeyIdParam = z.string().regex(KEY_ID, 'a key id: key_ and 16 hex digits');

/** A key created or rotated: the plain key, shown this once. */
export const NewKeySchema = z.object({
  success: z.literal(true),
  apiKey: z.string(),
  keyId: z.string(),
  replaced: z.string().optional().openapi({ description: 'The revoked key this one replaces (rotation)' }),
});

export function keyView(r: ApiKeyRecord): z.infer<typeof ApiKeySchema> {
  return {
    keyId: r.keyId,
    label: r.label,
    prefix: r.prefix,
    status: r.revokedAt ? 'revoked' : 'active',
    createdAt: r.createdAt,
    revokedAt: r.revokedAt,
  };
}
