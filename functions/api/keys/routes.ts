import { createRoute, z } from '@hono/zod-openapi';
import { listApiKeys, revokeApiKey, rotateApiKey } from '#shared/auth/api-keys';
import { authenticateApiKey } from '#shared/auth/credentials';
import { clientAddress } from '#shared/http/client-address';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json, rateLimitedResponse } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { apiKeyBody, presentedKey } from '../auth/presented-key.ts';
import { ApiKeySchema, KeyIdParam, keyView, NewKeySchema } from './schemas.ts';

const listRoute = createRoute({
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

const revokeRoute = createRoute({
  method: 'delete',
  path: '/{keyId}',
  summary: 'Revoke an API key: it no longer mints tokens, and the tokens it minted are refused',
  tags: ['keys'],
  security: bearer,
  request: { params: z.object({ keyId: KeyIdParam }) },
  responses: { 200: json(z.object({ success: z.literal(true), key: ApiKeySchema })), ...errorResponses },
});

const rotateRoute = createRoute({
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

/**
 * Mounted at `/api/keys`: the caller's own tenant's API keys. Listing and revoking take a token;
 * rotating takes the key being rotated. Creating keys is the admin's (`/api/admin/tenants/{id}/keys`).
 */
export function keyRoutes() {
  const r = router();
  r.openapi(rotateRoute, async (c) => {
    const presented = presentedKey(c, c.req.valid('json')?.apiKey);
    const claims = await authenticateApiKey(presented, clientAddress(c));
    const { apiKey, record, replaced } = await rotateApiKey(claims.tenant, claims.sub);
    return c.json({ success: true as const, apiKey, keyId: record.keyId, replaced }, 201);
  });
  r.use('*', requireAuth);
  r.openapi(listRoute, async (c) => {
    const keys = await listApiKeys(c.get('auth').tenant);
    return c.json({ success: true as const, keys: keys.map(keyView) }, 200);
  });
  r.openapi(revokeRoute, async (c) => {
    const key = await revokeApiKey(c.get('auth').tenant, c.req.valid('param').keyId);
    return c.json({ success: true as const, key: keyView(key) }, 200);
  });
  return r;
}
