import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { env } from '../config/env.ts';

/** What a browser page may send: credentials (bearer or API key), JSON, idempotency keys, SSE resumption. */
const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'X-Api-Key', 'Idempotency-Key', 'Last-Event-ID'];
/** What a page may read of an answer besides the simple headers. */
const EXPOSE_HEADERS = ['X-Request-Id', 'Retry-After', 'X-Duration-Ms', 'Content-Disposition'];

/** The origins of CORS_ORIGINS (comma-separated `scheme://host[:port]`); none when unset. */
export const corsOrigins = (): string[] =>
  (env().CORS_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);

/**
 * Cross-origin access for browser pages on the allowed origins only (the API and the streams alike):
 * a preflight from one of them is answered, any other origin gets no CORS headers, so its browser
 * keeps the answer from the page. No cookies are used, so credentials mode stays off.
 */
export function corsMiddleware(): MiddlewareHandler {
  const allowed = new Set(corsOrigins());
  if (allowed.size === 0) return async (_c, next) => next();
  return cors({
    origin: (origin) => (allowed.has(origin) ? origin : null),
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
  });
}

/**
 * The CORS headers of an answer written past Hono's response (an SSE stream on the raw Node
 * response, shared/stream/sink.ts), where the middleware's headers never arrive: the caller's origin
 * when it is allowed, else none, so the browser keeps the stream from any other origin's page.
 */
export function corsHeadersFor(origin: string | undefined): Record<string, string> {
  const allowed = origin !== undefined && corsOrigins().includes(origin);
  return allowed
    ? {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': EXPOSE_HEADERS.join(','),
        vary: 'Origin',
      }
    : {};
}
