import { createMiddleware } from 'hono/factory';
import { env } from '../config/env.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/context.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { authenticateApiKey, authenticateToken } from './credentials.ts';

/**
 * Tenant credentials on routes the connection host serves too (the streams, speech synthesis): a
 * tenant token or `wsm_` API key as `Authorization: Bearer`, or (for EventSource clients, which send
 * no headers) in the `key` query. A host without the token signing key (JWT_SECRET) accepts API keys
 * only, and says so. Failed API keys are throttled per key prefix everywhere, and per address where
 * the address is the client's (Lambda; not the host, whose peer is its load balancer).
 */
export const bearerOrApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const key =
    c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1] ??
    c.req.query('key') ??
    c.req.query('apiKey');
  if (!key) throw new UnauthorizedError('Authorization: Bearer <token or API key> (or ?key=) is required');
  if (key.startsWith('wsm_')) {
    c.set('auth', await authenticateApiKey(key, clientAddress(c, { socket: false })));
  } else {
    if (!env().JWT_SECRET) throw new UnauthorizedError('this host verifies API keys only: use an API key');
    c.set('auth', await authenticateToken(key));
  }
  await next();
});
