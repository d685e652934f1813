import type { Context } from 'hono';
import { fromEdge, VIEWER_ADDRESS_HEADER } from './edge-origin.ts';

/**
 * The caller's network address as the runtime saw it: API Gateway's `sourceIp` on Lambda, the
 * socket's peer under @hono/node-server. Headers such as X-Forwarded-For are not read: a client sets
 * them to whatever it likes. Behind the CloudFront distribution `sourceIp` is CloudFront's edge, so
 * a request that carries the distribution's key (shared/http/edge-origin.ts) is taken at the
 * viewer's address the distribution wrote. Undefined when neither runtime says (a direct `app.request()`), and for
 * the socket's peer when `socket: false`: in the cloud the connection host's peer is its load balancer.
 */
// biome-ignore lint/suspicious/noExplicitAny: any route's context
export function clientAddress(c: Context<any>, opts: { socket?: boolean } = {}): string | undefined {
  const bindings = c.env as
    | {
        event?: { requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } };
        incoming?: { socket?: { remoteAddress?: string } };
      }
    | undefined;
  const viewer = c.req.header(VIEWER_ADDRESS_HEADER);
  if (viewer && fromEdge(c)) return viewer;
  const rc = bindings?.event?.requestContext;
  const fromLambda = rc?.http?.sourceIp ?? rc?.identity?.sourceIp;
  return fromLambda ?? (opts.socket === false ? undefined : bindings?.incoming?.socket?.remoteAddress);
}
