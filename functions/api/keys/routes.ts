import { listApiKeys, revokeApiKey, rotateApiKey } from '#shared/auth/api-keys';
import { authenticateApiKey } from '#shared/auth/credentials';
import { clientAddress } from '#shared/http/client-address';
import { router } from '#shared/http/context';
import { requireAuth } from '../auth/middleware.ts';
import { presentedKey } from '../auth/presented-key.ts';
import { keyView, listRoute, revokeRoute, rotateRoute } from './routes.schema.ts';

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
