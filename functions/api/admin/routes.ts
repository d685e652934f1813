import { createApiKey } from '#shared/auth/api-keys';
import { createTenant, requireTenant } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { adminCredentialRoutes } from './credential-routes.ts';
import { adminExportRoutes } from './export-routes.ts';
import { adminHostRoutes } from './host-routes.ts';
import { keyCreateRoute, tenantCreateRoute } from './routes.schema.ts';

/** Mounted at `/api/admin`: tenants and their API keys, the connection hosts (admin scope only). */
export function adminRoutes() {
  const r = router();
  r.use('*', requireAuth, requireAdmin);
  r.openapi(tenantCreateRoute, async (c) => {
    const tenant = await createTenant(c.req.valid('json').name);
    const { apiKey } = await createApiKey(tenant.id, 'default');
    return c.json(
      {
        success: true as const,
        tenant: { id: tenant.id, name: tenant.name, portal_id: tenant.portalId },
        apiKey,
      },
      201,
    );
  });
  r.openapi(keyCreateRoute, async (c) => {
    const tenant = await requireTenant(c.req.valid('param').id);
    const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
    const { apiKey, record } = await createApiKey(tenant.id, body?.label);
    return c.json({ success: true as const, apiKey, keyId: record.keyId }, 201);
  });
  r.route('/', adminCredentialRoutes());
  r.route('/export', adminExportRoutes());
  r.route('/', adminHostRoutes());
  return r;
}
