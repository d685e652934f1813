import { createMiddleware } from 'hono/factory';
import { env } from '../config/env.ts';
import type { AppEnv } from '../http/context.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { findApiKey } from './tenants.ts';
import { verifyToken } from './tokens.ts';

/**
 * Tenant credentials on routes the connection host serves too (the streams, speech synthesis): a
 * tenant token or `wsm_` API key as `Authorization: Bearer`, or (for EventSource clients, which send
 * no headers) in the `key` query. A host without the token signing key (JWT_SECRET) accepts API keys
 * only, and says so.
 */
export const bearerOrApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const key =
    c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1] ??
    c.req.query('key') ??
    c.req.query('apiKey');
  if (!key) throw new UnauthorizedError('Authorization: Bearer <token or API key> (or ?key=) is required');
  if (key.startsWith('wsm_')) {
    const record = await findApiKey(key);
    if (!record) throw new UnauthorizedError('invalid API key');
    c.set('auth', { tenant: record.tenantId, sub: record.keyId, scope: record.scope });
  } else {
    if (!env().JWT_SECRET) throw new UnauthorizedError('this host verifies API keys only: use an API key');
    c.set('auth', await verifyToken(key));
  }
  await next();
});
