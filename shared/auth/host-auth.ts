import { createMiddleware } from 'hono/factory';
import { env } from '../config/env.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/context.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { authenticateApiKey, authenticateToken } from './credentials.ts';

/** The credential of an `Authorization: Bearer <credential>` header. */
export const bearerOf = (header: string | undefined): string | undefined =>
  header?.match(/^Bearer\s+(\S+)$/i)?.[1];

/**
 * The one "token or API key" check: a tenant token or `wsm_` API key as `Authorization: Bearer`, or
 * (for EventSource clients and links, which send no headers) in the `key` (or `apiKey`) query. Used
 * on the routes the connection host serves too (the streams, speech synthesis) and on the API's live
 * view. A process without the token signing key (JWT_SECRET, a host) accepts API keys only, and says
 * so. Failed API keys are throttled per key prefix everywhere, and per address where the address is
 * the client's: on Lambda always; the socket's peer only with `peerIsClient` (the API app under
 * @hono/node-server), never on the host, whose peer is its load balancer.
 */
export const tokenOrApiKey = (opts: { peerIsClient?: boolean } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const key = bearerOf(c.req.header('authorization')) ?? c.req.query('key') ?? c.req.query('apiKey');
    if (!key) throw new UnauthorizedError('Authorization: Bearer <token or API key> (or ?key=) is required');
    if (key.startsWith('wsm_')) {
      c.set('auth', await authenticateApiKey(key, clientAddress(c, { socket: opts.peerIsClient === true })));
    } else {
      if (!env().JWT_SECRET) throw new UnauthorizedError('this host verifies API keys only: use an API key');
      c.set('auth', await authenticateToken(key));
    }
    await next();
  });

/** `tokenOrApiKey` for routes the connection host serves as well as the API. */
export const bearerOrApiKey = tokenOrApiKey();
