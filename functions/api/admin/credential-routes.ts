import { createRoute, z } from '@hono/zod-openapi';
import { listApiKeys, revokeApiKey, rotateApiKey } from '#shared/auth/api-keys';
import { requireTenant, rotatePortalId, setTenantDisabled, type Tenant } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { ApiKeySchema, KeyIdParam, keyView, NewKeySchema } from '../keys/schemas.ts';

const TenantId = z.string().min(1).max(64);

const TenantSchema = z
  .object({ id: z.string(), name: z.string(), portal_id: z.string(), disabled: z.boolean() })
  .openapi('Tenant');
const TenantBody = z.object({ success: z.literal(true), tenant: TenantSchema });
const tenantView = (t: Tenant) => ({ id: t.id, name: t.name, portal_id: t.portalId, disabled: t.disabled });

const getTenantRoute = createRoute({
  method: 'get',
  path: '/tenants/{id}',
  summary: 'A tenant (admin only)',
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: { 200: json(TenantBody), ...errorResponses },
});

const listKeysRoute = createRoute({
  method: 'get',
  path: '/tenants/{id}/keys',
  summary: "A tenant's API keys (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: {
    200: json(z.object({ success: z.literal(true), keys: z.array(ApiKeySchema) })),
    ...errorResponses,
  },
});

const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/tenants/{id}/keys/{keyId}',
  summary: "Revoke a tenant's API key and the tokens it minted (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId, keyId: KeyIdParam }) },
  responses: { 200: json(z.object({ success: z.literal(true), key: ApiKeySchema })), ...errorResponses },
});

const rotateKeyRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/keys/{keyId}/rotate',
  summary: "Replace a tenant's API key by a new one; the old key is revoked (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId, keyId: KeyIdParam }) },
  responses: { 201: json(NewKeySchema), ...errorResponses },
});

const disableRoute = (action: 'disable' | 'enable') =>
  createRoute({
    method: 'post',
    path: `/tenants/{id}/${action}`,
    summary:
      action === 'disable'
        ? 'Disable a tenant: its tokens and API keys are refused (403 TENANT_DISABLED), its portal id answers 404 (admin only)'
        : 'Re-enable a disabled tenant; its keys and unexpired tokens work again (admin only)',
    tags: ['admin'],
    security: bearer,
    request: { params: z.object({ id: TenantId }) },
    responses: { 200: json(TenantBody), ...errorResponses },
  });

const rotatePortalRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/portal/rotate',
  summary: 'Give a tenant a new portal id; the old one answers 404 from now on (admin only)',
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: { 200: json(TenantBody), ...errorResponses },
});

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
