import { listApiKeys, revokeApiKey, rotateApiKey } from '#shared/auth/api-keys';
import { requireTenant, rotatePortalId, setTenantDisabled, type Tenant } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { keyView } from '../keys/routes.schema.ts';
import {
  disableRoute,
  getTenantRoute,
  listKeysRoute,
  revokeKeyRoute,
  rotateKeyRoute,
  rotatePortalRoute,
} from './credential-routes.schema.ts';

const tenantView = (t: Tenant) => ({ id: t.id, name: t.name, portal_id: t.portalId, disabled: t.disabled });

/** Revocation under `/api/admin` (behind the admin router's `requireAuth` and `requireAdmin`). */
export function adminCredentialRoutes() {
  const r = router();
  r.openapi(getTenantRoute, async (c) => {
    const tenant = await requireTenant(c.req.valid('param').id);
    return c.json({ success: true as const, tenant: tenantView(tenant) }, 200);
  });
  r.openapi(listKeysRoute, async (c) => {
    const tenant = await requireTenant(c.req.valid('param').id);
    const keys = await listApiKeys(tenant.id);
    return c.json({ success: true as const, keys: keys.map(keyView) }, 200);
  });
  r.openapi(revokeKeyRoute, async (c) => {
    const { id, keyId } = c.req.valid('param');
    const key = await revokeApiKey(id, keyId);
    return c.json({ success: true as const, key: keyView(key) }, 200);
  });
  r.openapi(rotateKeyRoute, async (c) => {
    const { id, keyId } = c.req.valid('param');
    const { apiKey, record, replaced } = await rotateApiKey(id, keyId);
    return c.json({ success: true as const, apiKey, keyId: record.keyId, replaced }, 201);
  });
  for (const action of ['disable', 'enable'] as const) {
    r.openapi(disableRoute(action), async (c) => {
      const tenant = await setTenantDisabled(c.req.valid('param').id, action === 'disable');
      return c.json({ success: true as const, tenant: tenantView(tenant) }, 200);
    });
  }
  r.openapi(rotatePortalRoute, async (c) => {
    const tenant = await rotatePortalId(c.req.valid('param').id);
    return c.json({ success: true as const, tenant: tenantView(tenant) }, 200);
  });
  return r;
}
