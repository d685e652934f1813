import { createRoute, z } from '@hono/zod-openapi';
import { authenticateApiKey } from '#shared/auth/credentials';
import { ensureAdminTenant, requireTenant, rotatePortalId } from '#shared/auth/tenants';
import { clientAddress } from '#shared/http/client-address';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json, rateLimitedResponse, type Security } from '#shared/http/schemas';
import { requireAuth } from './middleware.ts';
import { apiKeyBody, presentedKey } from './presented-key.ts';
import { issueToken } from './tokens.ts';

/** The key in its header, or none: it may come in the body instead. */
const keyInHeaderOrBody: Security = [{ apiKeyHeader: [] }, {}];

const tokenRoute = createRoute({
  method: 'post',
  path: '/token',
  summary: 'Exchange an API key (body `apiKey` or header `X-Api-Key`) for a JWT',
  security: keyInHeaderOrBody,
  description:
    'Failed attempts are limited per client address and per key prefix (docs/api.md, "Revocation and throttling"); past the limit every attempt answers 429 with `Retry-After` until the window ends.',
  tags: ['auth'],
  request: {
    body: apiKeyBody,
  },
  responses: {
    200: json(z.object({ success: z.literal(true), token: z.string(), expiresIn: z.number().int() })),
    ...errorResponses,
    429: rateLimitedResponse,
  },
});

const PortalBody = z.object({ success: z.literal(true), portal_id: z.string() });

const portalRoute = createRoute({
  method: 'get',
  path: '/',
  summary: "The caller's tenant portal id",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(PortalBody), ...errorResponses },
});

const portalRotateRoute = createRoute({
  method: 'post',
  path: '/rotate',
  summary: "Give the caller's tenant a new portal id; the old one answers 404 from now on",
  tags: ['auth'],
  security: bearer,
  responses: { 200: json(PortalBody), ...errorResponses },
});

/** `/api/auth/token`: an API key (or the admin key) for a JWT. */
export function authRoutes() {
  const r = router();
  r.openapi(tokenRoute, async (c) => {
    const candidate = presentedKey(c, c.req.valid('json')?.apiKey);
    const claims = await authenticateApiKey(candidate, clientAddress(c), { admin: true });
    if (claims.scope === 'admin') await ensureAdminTenant();
    const { token, expiresIn } = await issueToken(claims);
    return c.json({ success: true as const, token, expiresIn }, 200);
  });
  return r;
}

/** `/api/portal`: the caller's tenant portal id, and its rotation. */
export function portalRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(portalRoute, async (c) => {
    const tenant = await requireTenant(c.get('auth').tenant);
    return c.json({ success: true as const, portal_id: tenant.portalId }, 200);
  });
  r.openapi(portalRotateRoute, async (c) => {
    const tenant = await rotatePortalId(c.get('auth').tenant);
    return c.json({ success: true as const, portal_id: tenant.portalId }, 200);
  });
  return r;
}
