import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey } from '#shared/auth/api-keys';
import { createTenant, requireTenant } from '#shared/auth/tenants';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { adminCredentialRoutes } from './credential-routes.ts';
import { adminExportRoutes } from './export-routes.ts';
import { adminHostRoutes } from './host-routes.ts';

const tenantCreateRoute = createRoute({
  method: 'post',
  path: '/tenants',
  summary: 'Create a tenant and its first API key (admin only; the key is shown once)',
  tags: ['admin'],
  security: bearer,
  request: {
    body: {
      content: { 'application/json': { schema: z.object({ name: z.string().trim().min(1).max(100) }) } },
    },
  },
  responses: {
    201: json(
      z.object({
        success: z.literal(true),
        tenant: z.object({ id: z.string(), name: z.string(), portal_id: z.string() }),
        apiKey: z.string(),
      }),
    ),
    ...errorResponses,
  },
});

const keyCreateRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/keys',
  summary: 'Create another API key for a tenant (admin only)',
  tags: ['admin'],
  security: bearer,
  request: {
    params: z.object({ id: z.string().min(1).max(64) }),
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ label: z.string().max(100).optional() }) } },
    },
  },
  responses: {
    201: json(z.object({ success: z.literal(true), apiKey: z.string(), keyId: z.string() })),
    ...errorResponses,
  },
});

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
