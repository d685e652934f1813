import { createMiddleware } from 'hono/factory';
import { findApiKey } from '#shared/auth/tenants';
import type { AppEnv } from '#shared/http/context';
import { ForbiddenError, UnauthorizedError } from '#shared/http/errors';
import { verifyToken } from './tokens.ts';

function bearer(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1];
}

/** Every private path: `Authorization: Bearer <jwt>`. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  if (!token) throw new UnauthorizedError('Authorization: Bearer <token> is required');
  c.set('auth', await verifyToken(token));
  await next();
});

/** The live view also takes `key` / `apiKey` in the query: an API key or a token. */
export const requireAuthOrQueryKey = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  const key = c.req.query('key') ?? c.req.query('apiKey');
  if (token) {
    c.set('auth', await verifyToken(token));
  } else if (key) {
    const record = key.startsWith('wsm_') ? await findApiKey(key) : undefined;
    c.set(
      'auth',
      record ? { tenant: record.tenantId, sub: record.keyId, scope: record.scope } : await verifyToken(key),
    );
  } else {
    throw new UnauthorizedError('a Bearer token or the key query parameter is required');
  }
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('auth').scope !== 'admin') throw new ForbiddenError('admin scope required');
  await next();
});
