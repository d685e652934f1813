import { createMiddleware } from 'hono/factory';
import { authenticateApiKey, authenticateToken } from '#shared/auth/credentials';
import { clientAddress } from '#shared/http/client-address';
import type { AppEnv } from '#shared/http/context';
import { ForbiddenError, UnauthorizedError } from '#shared/http/errors';

function bearer(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1];
}

/** Every private path: `Authorization: Bearer <jwt>`, from a key that is still current. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  if (!token) throw new UnauthorizedError('Authorization: Bearer <token> is required');
  c.set('auth', await authenticateToken(token));
  await next();
});

/** The live view also takes `key` / `apiKey` in the query: an API key (throttled) or a token. */
export const requireAuthOrQueryKey = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  const key = c.req.query('key') ?? c.req.query('apiKey');
  if (token) {
    c.set('auth', await authenticateToken(token));
  } else if (key) {
    c.set(
      'auth',
      key.startsWith('wsm_') ? await authenticateApiKey(key, clientAddress(c)) : await authenticateToken(key),
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
