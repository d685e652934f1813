import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '#shared/auth/api-keys';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { ApiKeySchema, KeyIdParam, KeyLabelBody, keyView, NewKeySchema } from './schemas.ts';

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

const createKeyRoute = createRoute({
  method: 'post',
  path: '/',
  summary: "Create another API key for the caller's tenant (the key is shown once)",
  tags: ['keys'],
  security: bearer,
  request: { body: { required: false, content: { 'application/json': { schema: KeyLabelBody } } } },
  responses: { 201: json(NewKeySchema), ...errorResponses },
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
  path: '/{keyId}/rotate',
  summary: 'Replace an API key by a new one with the same label; the old key is revoked',
  tags: ['keys'],
  security: bearer,
  request: { params: z.object({ keyId: KeyIdParam }) },
  responses: { 201: json(NewKeySchema), ...errorResponses },
});

/** Mounted at `/api/keys`: the caller's own tenant's API keys. */
export function keyRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(listRoute, async (c) => {
    const keys = await listApiKeys(c.get('auth').tenant);
    return c.json({ success: true as const, keys: keys.map(keyView) }, 200);
  });
  r.openapi(createKeyRoute, async (c) => {
    const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
    const { apiKey, record } = await createApiKey(c.get('auth').tenant, body?.label || undefined);
    return c.json({ success: true as const, apiKey, keyId: record.keyId }, 201);
  });
  r.openapi(revokeRoute, async (c) => {
    const key = await revokeApiKey(c.get('auth').tenant, c.req.valid('param').keyId);
    return c.json({ success: true as const, key: keyView(key) }, 200);
  });
  r.openapi(rotateRoute, async (c) => {
    const { apiKey, record, replaced } = await rotateApiKey(c.get('auth').tenant, c.req.valid('param').keyId);
    return c.json({ success: true as const, apiKey, keyId: record.keyId, replaced }, 201);
  });
  return r;
}
