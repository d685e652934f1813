import { createMiddleware } from 'hono/factory';
import { authenticateToken } from '#shared/auth/credentials';
import { bearerOf } from '#shared/auth/host-auth';
import type { AppEnv } from '#shared/http/context';
import { ForbiddenError, UnauthorizedError } from '#shared/http/errors';

/** Every private path: `Authorization: Bearer <jwt>`, from a key that is still current. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerOf(c.req.header('authorization'));
  if (!token) throw new UnauthorizedError('Authorization: Bearer <token> is required');
  c.set('auth', await authenticateToken(token));
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('auth').scope !== 'admin') throw new ForbiddenError('admin scope required');
  await next();
});
