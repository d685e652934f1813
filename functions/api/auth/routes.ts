import { authenticateApiKey } from '#shared/auth/credentials';
import { ensureAdminTenant, requireTenant, rotatePortalId } from '#shared/auth/tenants';
import { clientAddress } from '#shared/http/client-address';
import { router } from '#shared/http/context';
import { requireAuth } from './middleware.ts';
import { presentedKey } from './presented-key.ts';
import { portalRotateRoute, portalRoute, tokenRoute } from './routes.schema.ts';
import { issueToken } from './tokens.ts';

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
