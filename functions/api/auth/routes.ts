import { timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { TokenClaims } from '#shared/auth/claims';
import { ADMIN_TENANT_ID, ensureAdminTenant, findApiKey, requireTenant } from '#shared/auth/tenants';
import { env } from '#shared/config/env';
import { router } from '#shared/http/context';
import { UnauthorizedError } from '#shared/http/errors';
import { bearer, errorResponses, json, type Security } from '#shared/http/schemas';
import { requireAuth } from './middleware.ts';
import { issueToken } from './tokens.ts';

function isAdminKey(candidate: string): boolean {
  const admin = env().ADMIN_API_KEY;
  if (!admin) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(admin);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The key in its header, or none: it may come in the body instead. */
const keyInHeaderOrBody: Security = [{ apiKeyHeader: [] }, {}];

const tokenRoute = createRoute({
  method: 'post',
  path: '/token',
  summary: 'Exchange an API key (body `apiKey` or header `X-Api-Key`) for a JWT',
  security: keyInHeaderOrBody,
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

const portalRoute = createRoute({
  method: 'get',
  path: '/',
  summary: "The caller's tenant portal id",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(z.object({ success: z.literal(true), portal_id: z.string() })), ...errorResponses },
});

/** `/api/auth/token`: an API key (or the admin key) for a JWT. */
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
  return r;
}

/** `/api/portal`: the caller's tenant portal id. */
export function portalRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(portalRoute, async (c) => {
    const tenant = await requireTenant(c.get('auth').tenant);
    return c.json({ success: true as const, portal_id: tenant.portalId }, 200);
  });
  return r;
}
