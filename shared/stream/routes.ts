import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { tenantOfPortal } from '../auth/tenants.ts';
import { router } from '../http/context.ts';
import { NotFoundError, ValidationError } from '../http/errors.ts';
import { errorResponses } from '../http/schemas.ts';
import { logger } from '../log/logger.ts';
import { openFeed } from './feed.ts';
import { nodeResponse, nodeSink, type SseSink, webSink } from './sink.ts';

export const HEARTBEAT_MS = 15_000;
/** A client this far behind (bytes not yet sent) is disconnected; it resumes with Last-Event-ID. */
const MAX_BACKLOG_BYTES = 1024 * 1024;
const RECONNECT_MS = 3_000;

const EVENT_ID = /^\d{13}#[^\s]{1,200}$/;

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
      description: 'text/event-stream of `message:inbound` payloads',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    400: errorResponses[400],
    404: errorResponses[404],
  },
});

export function streamRoutes() {
  const r = router();
  r.openapi(route, async (c) => {
    const { portal_id } = c.req.valid('param');
    const lastEventId = resumeId(c.req.valid('header')['last-event-id'], c.req.valid('query').lastEventId);
    const tenantId = await tenantOfPortal(portal_id);
    if (!tenantId) throw new NotFoundError('portal not found');
    return serveSse(c, tenantId, (send) => openFeed(tenantId, lastEventId, send));
  });
  return r;
}

/** Opens a client's events (replay then live), each handed to `send`; answers the function that closes them. */
export type OpenEvents = (send: (event: { frame: Uint8Array }) => void) => Promise<() => void>;

/** The `Last-Event-ID` a client resumes after: the header, else the `lastEventId` query; checked. */
export function resumeId(header: string | undefined, query: string | undefined): string | undefined {
  const id = header || query || undefined;
  if (id && !EVENT_ID.test(id))
    throw new ValidationError('Last-Event-ID: not an id this stream sent', 'Last-Event-ID');
  return id;
}

/**
 * Serves one SSE client of a tenant's stream (the tenant stream, the extraction stream): the raw Node
 * response under @hono/node-server, else Hono's web stream; events from `open`, heartbeats, and a
 * cut-off for clients that stop reading.
 */
// biome-ignore lint/suspicious/noExplicitAny: any route's context
export function serveSse(c: Context<any>, tenantId: string, open: OpenEvents): Response | Promise<Response> {
  const headers = {
    'access-control-allow-origin': '*',
    'x-accel-buffering': 'no',
    'x-request-id': c.get('requestId'),
  };
  const outgoing = nodeResponse(c);
  if (outgoing) {
    void serveClient(nodeSink(outgoing, headers), tenantId, open);
    return RESPONSE_ALREADY_SENT;
  }
  for (const [k, v] of Object.entries(headers)) c.header(k, v);
  return streamSSE(c, (stream) => serveClient(webSink(stream), tenantId, open));
}

/** One client: replay and live events, heartbeats, and a cut-off for clients that stop reading. */
async function serveClient(sink: SseSink, tenantId: string, open: OpenEvents): Promise<void> {
  const write = (chunk: Uint8Array | string) => {
    if (sink.backlog() > MAX_BACKLOG_BYTES) {
      logger.warn({ tenantId }, 'SSE client too slow; disconnected');
      sink.end();
      return;
    }
    sink.write(chunk);
  };
  let close: (() => void) | undefined;
  try {
    close = await open((e) => write(e.frame));
  } catch (err) {
    logger.error({ err, tenantId }, 'SSE feed could not open');
    sink.end();
    return;
  }
  // Tells the client it is subscribed: everything committed from here on will reach it.
  write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
  const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
  await sink.gone;
  clearInterval(heartbeat);
  close();
}
