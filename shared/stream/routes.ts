import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { LRUCache } from 'lru-cache';
import { tenantOfPortal } from '../auth/tenants.ts';
import { env } from '../config/env.ts';
import { router } from '../http/context.ts';
import { corsHeadersFor } from '../http/cors.ts';
import { NotFoundError, ValidationError } from '../http/errors.ts';
import { errorResponses, rateLimitedResponse } from '../http/schemas.ts';
import { logger } from '../log/logger.ts';
import { ORDER_KEY } from '../store/keys.ts';
import { admitStream } from './admission.ts';
import { type OpenedFeed, openFeed } from './feed.ts';
import { nodeResponse, nodeSink, type SseSink, webSink } from './sink.ts';

export const HEARTBEAT_MS = 15_000;
/** A client this far behind (bytes not yet sent) is disconnected; it resumes with Last-Event-ID. */
const MAX_BACKLOG_BYTES = 1024 * 1024;
const RECONNECT_MS = 3_000;

const route = createRoute({
  method: 'get',
  path: '/{portal_id}/stream',
  tags: ['stream'],
  summary: "Server-Sent Events: the tenant's inbound messages, live, resumable with Last-Event-ID",
  description:
    'No credentials: the portal id is a bearer secret for read-only access. Each event has `id` (resume point) and `data` (JSON stream payload); a comment line every 15 s keeps the connection open.',
  security: [],
  request: {
    params: z.object({
      portal_id: z
        .string()
        .min(1)
        .max(100)
        .openapi({ param: { name: 'portal_id', in: 'path' }, example: 'prt_0123456789abcdef01234567' }),
    }),
    query: z.object({
      lastEventId: z
        .string()
        .max(220)
        .optional()
        .openapi({ description: 'Resume after this event id (for clients that cannot send Last-Event-ID)' }),
    }),
    headers: z.object({
      'last-event-id': z.string().max(220).optional().openapi({ description: 'Standard SSE resume header' }),
    }),
  },
  responses: {
    200: {
      description: 'text/event-stream of `message:inbound` payloads and `chat.takeover` events',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: errorResponses[400],
    404: errorResponses[404],
    429: rateLimitedResponse,
  },
});

export function streamRoutes() {
  const r = router();
  r.openapi(route, async (c) => {
    const { portal_id } = c.req.valid('param');
    const lastEventId = resumeId(c.req.valid('header')['last-event-id'], c.req.valid('query').lastEventId);
    const tenantId = await tenantOfPortal(portal_id);
    if (!tenantId) throw new NotFoundError('portal not found');
    return serveSse(
      c,
      tenantId,
      (send) => openFeed(tenantId, lastEventId, send),
      () => portalStillServes(portal_id, tenantId),
    );
  });
  return r;
}

/**
 * Whether a portal id still opens its tenant's stream (not rotated, tenant not disabled). Streams of
 * one portal share a read per SSE_ACCESS_RECHECK_MS.
 */
const portalChecks = new LRUCache<string, Promise<boolean>>({ max: 10_000, ttl: 1 });
function portalStillServes(portalId: string, tenantId: string): Promise<boolean> {
  let check = portalChecks.get(portalId);
  if (!check) {
    check = tenantOfPortal(portalId).then((t) => t === tenantId);
    portalChecks.set(portalId, check, { ttl: env().SSE_ACCESS_RECHECK_MS });
  }
  return check;
}

/** Opens a client's events (replay then live), each handed to `send`; answers how to close them. */
export type OpenEvents = (send: (event: { frame: Uint8Array }) => void) => Promise<OpenedFeed>;

/**
 * Whether the credential that opened a stream still holds; checked every SSE_ACCESS_RECHECK_MS, and
 * the stream is closed once it does not (a revoked key, a disabled tenant, a rotated portal id). A
 * failed check (storage unreachable) keeps the stream.
 */
export type StillAllowed = () => Promise<boolean>;

/** The `Last-Event-ID` a client resumes after: the header, else the `lastEventId` query; checked. */
export function resumeId(header: string | undefined, query: string | undefined): string | undefined {
  const id = header || query || undefined;
  if (id && !ORDER_KEY.test(id))
    throw new ValidationError('Last-Event-ID: not an id this stream sent', 'Last-Event-ID');
  return id;
}

/**
 * Serves one SSE client of a tenant's stream (the tenant stream, the extraction stream): the raw Node
 * response under @hono/node-server, else Hono's web stream; events from `open`, heartbeats, and a
 * cut-off for clients that stop reading. A client over the caps on open streams is refused with
 * 429 before anything is read for it (`admission.ts`).
 */
export function serveSse(
  // biome-ignore lint/suspicious/noExplicitAny: any route's context
  c: Context<any>,
  tenantId: string,
  open: OpenEvents,
  stillAllowed: StillAllowed,
): Response | Promise<Response> {
  const release = admitStream(tenantId);
  const headers = {
    ...corsHeadersFor(c.req.header('origin')),
    'x-accel-buffering': 'no',
    'x-request-id': c.get('requestId'),
  };
  try {
    const outgoing = nodeResponse(c);
    if (outgoing) {
      void serveClient(nodeSink(outgoing, headers), tenantId, open, stillAllowed).finally(release);
      return RESPONSE_ALREADY_SENT;
    }
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    return streamSSE(c, (stream) =>
      serveClient(webSink(stream), tenantId, open, stillAllowed).finally(release),
    );
  } catch (err) {
    release();
    throw err;
  }
}

/** One client: replay and live events, heartbeats, and a cut-off for clients that stop reading. */
async function serveClient(
  sink: SseSink,
  tenantId: string,
  open: OpenEvents,
  stillAllowed: StillAllowed,
): Promise<void> {
  const write = (chunk: Uint8Array | string) => {
    if (sink.backlog() > MAX_BACKLOG_BYTES) {
      logger.warn({ tenantId }, 'SSE client too slow; disconnected');
      sink.end();
      return;
    }
    sink.write(chunk);
  };
  let opened: OpenedFeed;
  try {
    opened = await open((e) => write(e.frame));
  } catch (err) {
    logger.error({ err, tenantId }, 'SSE feed could not open');
    sink.end();
    return;
  }
  if (opened.truncated) {
    // The replay sent what one request may: the client reconnects after `retry` with the last id
    // it got (EventSource does so by itself) and the next request sends the rest.
    write(`retry: ${RECONNECT_MS}\n: replay limit reached; reconnect with Last-Event-ID\n\n`);
    sink.finish();
    await sink.gone;
    return;
  }
  // Tells the client it is subscribed: everything committed from here on will reach it.
  write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
  const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
  const recheck = setInterval(async () => {
    if (await stillAllowed().catch(() => true)) return;
    logger.info({ tenantId }, 'SSE credential no longer holds; stream closed');
    sink.finish();
  }, env().SSE_ACCESS_RECHECK_MS);
  await sink.gone;
  clearInterval(heartbeat);
  clearInterval(recheck);
  opened.close();
}
