import { createRoute, z } from '@hono/zod-openapi';
import { type ApiKeyRecord, KEY_ID } from '#shared/auth/api-keys';
import { bearer, errorResponses, json, rateLimitedResponse } from '#shared/http/schemas';
import { apiKeyBody } from '../auth/presented-key.ts';

/**
 * The definitions of the key routes (routes.ts), which also make /openapi.json, and the key as
 * listings show it (also the admin's key routes, admin/credential-routes.ts).
 */

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

export const listRoute = createRoute({
  method: 'get',
  path: '/',
  summary: "The caller's tenant's API keys (revoked ones for 30 days after revocation)",
  tags: ['keys'],
  security: bearer,
  responses: {
    200: json(z.object({ success: z.literal(true), keys: z.array(ApiKeySchema) })),
    ...errorResponses,
  },
});

export const revokeRoute = createRoute({
  method: 'delete',
  path: '/{keyId}',
  summary: 'Revoke an API key: it no longer mints tokens, and the tokens it minted are refused',
  tags: ['keys'],
  security: bearer,
  request: { params: z.object({ keyId: KeyIdParam }) },
  responses: { 200: json(z.object({ success: z.literal(true), key: ApiKeySchema })), ...errorResponses },
});

export const rotateRoute = createRoute({
  method: 'post',
  path: '/rotate',
  summary:
    'Swap the API key presented (body `apiKey` or header `X-Api-Key`) for a new one with the same label',
  description:
    'Needs the key itself, not a token: a token (which lasts an hour) cannot be turned into a lasting key. The old key and its tokens are refused from then on. Failed attempts count as at `/api/auth/token`.',
  tags: ['keys'],
  request: {
    body: apiKeyBody,
  },
  responses: {
    201: json(NewKeySchema),
    ...errorResponses,
    429: rateLimitedResponse,
  },
});
