import { timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { env } from '../config/env.ts';
import { router } from '../http/context.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { bearer, errorResponses, json } from '../http/schemas.ts';
import { requireAdmin, requireAuth } from './middleware.ts';
import {
  ADMIN_TENANT_ID,
  createApiKey,
  createTenant,
  ensureAdminTenant,
  findApiKey,
  requireTenant,
} from './tenants.ts';
import { issueToken, type TokenClaims } from './tokens.ts';

function isAdminKey(candidate: string): boolean {
  const admin = env().ADMIN_API_KEY;
  if (!admin) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(admin);
  return a.length === b.length && timingSafeEqual(a, b);
}

const tokenRoute = createRoute({
  method: 'post',
  path: '/api/auth/token',
  summary: 'Exchange an API key (body `apiKey` or header `X-Api-Key`) for a JWT',
  tags: ['auth'],
  request: {
    body: {
      required: false,
      content: {
        'application/json': { schema: z.object({ apiKey: z.string().min(1).max(200).optional() }) },
      },
    },
  },
  responses: {
    200: json(z.object({ success: z.literal(true), token: z.string(), expiresIn: z.number().int() })),
    ...errorResponses,
  },
});

const tenantCreateRoute = createRoute({
  method: 'post',
  path: '/api/admin/tenants',
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
  path: '/api/admin/tenants/{id}/keys',
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

const portalRoute = createRoute({
  method: 'get',
  path: '/api/portal',
  summary: "The caller's tenant portal id",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(z.object({ success: z.literal(true), portal_id: z.string() })), ...errorResponses },
});

export function authRoutes() {
  const r = router();
  r.openapi(tokenRoute, async (c) => {
    const fromBody = c.req.header('content-type')?.includes('json') ? c.req.valid('json')?.apiKey : undefined;
    const candidate = fromBody ?? c.req.header('x-api-key');
    if (!candidate) throw new UnauthorizedError('apiKey (body) or X-Api-Key (header) is required');
    let claims: TokenClaims;
    if (isAdminKey(candidate)) {
      await ensureAdminTenant();
      claims = { tenant: ADMIN_TENANT_ID, sub: 'admin', scope: 'admin' };
    } else {
      const record = await findApiKey(candidate);
      if (!record) throw new UnauthorizedError('unknown API key');
      claims = { tenant: record.tenantId, sub: record.keyId, scope: record.scope };
    }
    const { token, expiresIn } = await issueToken(claims);
    return c.json({ success: true as const, token, expiresIn }, 200);
  });

  r.use('/api/admin/*', requireAuth, requireAdmin);
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

  r.use('/api/portal', requireAuth);
  r.openapi(portalRoute, async (c) => {
    const tenant = await requireTenant(c.get('auth').tenant);
    return c.json({ success: true as const, portal_id: tenant.portalId }, 200);
  });
  return r;
}
