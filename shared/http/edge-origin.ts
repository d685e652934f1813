import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { env } from '../config/env.ts';
import { ForbiddenError } from './errors.ts';

/** The header CloudFront adds to every request it sends the API (an origin custom header; infra/edge.ts). */
// Not X-Edge-… nor X-Amz-…: CloudFront reserves those prefixes.
export const EDGE_ORIGIN_HEADER = 'x-service-origin-key';
/** The viewer's address, written by the distribution's viewer-request function over whatever a client sent. */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

/** Whether the request carries the distribution's key (timing-safe); false when no key is configured. */
// biome-ignore lint/suspicious/noExplicitAny: any route's context
export function fromEdge(c: Context<any>): boolean {
  const key = env().EDGE_ORIGIN_KEY;
  const sent = c.req.header(EDGE_ORIGIN_HEADER);
  if (!key || !sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * With EDGE_ORIGIN_KEY set (the stack), only requests through the distribution are served: a client
 * calling API Gateway's own `execute-api` address gets 403, so it cannot go around what the
 * distribution does (one name, the viewer's address for the API-key limits, a WAF an operator adds).
 */
export function edgeOnly(): MiddlewareHandler {
  return async (c, next) => {
    if (env().EDGE_ORIGIN_KEY && !fromEdge(c)) {
      throw new ForbiddenError('call the service on its public address, not on API Gateway’s own');
    }
    return next();
  };
}
