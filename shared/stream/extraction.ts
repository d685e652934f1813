import { createRoute, z } from '@hono/zod-openapi';
import { assertActive } from '../auth/credentials.ts';
import { bearerOrApiKey } from '../auth/host-auth.ts';
import { extractionFeed } from '../chatbot/extraction.ts';
import { GLOBAL_KEY } from '../chatbot/session-keys.ts';
import { env } from '../config/env.ts';
import { router } from '../http/context.ts';
import { TenantDisabledError, UnauthorizedError } from '../http/errors.ts';
import { bearerOrQueryKey, errorResponses, rateLimitedResponse } from '../http/schemas.ts';
import { logger } from '../log/logger.ts';
import { orderKeyAt, orderKeyTime } from '../store/keys.ts';
import type { OpenedFeed } from './feed.ts';
import { resumeId, serveSse } from './routes.ts';

/**
 * The extraction stream (docs/extraction.md): every new or changed booking/lead record of the tenant
 * as `data: {"type":"NEW_EXTRACTION","records":[record]}`, the event id being the record version's
 * order key, so `Last-Event-ID` replays what a client missed. Each client polls the tenant's
 * extraction feed (an index of the latest version of each record): extractions are a few per chat,
 * so there is no shared poller as for the message stream.
 */
export const EXTRACTION_POLL_MS = 500;
const LOOKBACK_MS = 2_000;
const encoder = new TextEncoder();

type Row = Awaited<ReturnType<typeof extractionFeed>>[number];

const frameOf = (r: Row) => {
  const { gsi1sk, sessionKeys: _, ...record } = r;
  const data = JSON.stringify({ type: 'NEW_EXTRACTION', records: [record] });
  return { id: gsi1sk, frame: encoder.encode(`id: ${gsi1sk}\ndata: ${data}\n\n`) };
};

/**
 * Replays the records changed after `lastEventId` (at most `replayMax` record versions: a replay
 * cut there ends the stream, and the client resumes after its last id), then polls for live ones.
 */
export async function openExtractionFeed(
  tenantId: string,
  sessionKey: string,
  lastEventId: string | undefined,
  send: (e: { frame: Uint8Array }) => void,
  replayMax = env().SSE_REPLAY_MAX,
): Promise<OpenedFeed> {
  const mine = (r: Row) => sessionKey === GLOBAL_KEY || r.sessionKeys.includes(sessionKey);
  const seen = new Map<string, number>();
  const opened = Date.now();
  let newest = opened;
  const emit = (rows: Row[]) => {
    for (const r of rows) {
      const ts = orderKeyTime(r.gsi1sk);
      newest = Math.max(newest, ts);
      if (seen.has(r.gsi1sk)) continue;
      seen.set(r.gsi1sk, ts);
      if (mine(r)) send(frameOf(r));
    }
  };
  // The window open when the client subscribed is known first: only later versions are live.
  const initial = await extractionFeed(tenantId, orderKeyAt(opened - LOOKBACK_MS));
  // What the client missed first (it marks what it sends), then the rest of the window as seen.
  if (lastEventId) {
    const missed = await extractionFeed(tenantId, lastEventId, replayMax);
    emit(missed);
    if (missed.length >= replayMax) return { close: () => {}, truncated: true };
  }
  for (const r of initial) if (!seen.has(r.gsi1sk)) seen.set(r.gsi1sk, orderKeyTime(r.gsi1sk));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  const poll = async () => {
    try {
      const start = Math.min(newest, Date.now()) - LOOKBACK_MS;
      const rows = await extractionFeed(tenantId, orderKeyAt(start));
      for (const [k, ts] of seen) if (ts < start) seen.delete(k);
      if (!stopped) emit(rows);
      failures = 0;
    } catch (err) {
      if (failures++ === 0) logger.warn({ err, tenantId }, 'extraction feed poll failed');
    }
    if (!stopped) timer = setTimeout(poll, EXTRACTION_POLL_MS);
  };
  timer = setTimeout(poll, EXTRACTION_POLL_MS);
  const close = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { close, truncated: false };
}

const streamAuth = bearerOrApiKey;

const route = createRoute({
  method: 'get',
  path: '/extracted-stream',
  tags: ['chatbot', 'stream'],
  security: bearerOrQueryKey,
  middleware: [streamAuth] as const,
  summary: 'Server-Sent Events: new and changed extraction records, resumable with Last-Event-ID',
  description:
    'Each event: `id` (resume point) and `data` `{"type":"NEW_EXTRACTION","records":[record]}`; a comment line every 15 s keeps the connection open.',
  request: {
    query: z.object({
      sessionKey: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .default(GLOBAL_KEY)
        .transform((k) => (k === '*' ? GLOBAL_KEY : k))
        .openapi({ description: '`global` (default): all of the tenant; a session key or profile narrows' }),
      lastEventId: z.string().max(220).optional(),
      key: z.string().max(2000).optional().openapi({ description: 'a token or API key, for EventSource' }),
    }),
    headers: z.object({ 'last-event-id': z.string().max(220).optional() }),
  },
  responses: {
    200: {
      description: 'text/event-stream of NEW_EXTRACTION events',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    ...errorResponses,
    429: rateLimitedResponse,
  },
});

/** `GET /extracted-stream`, mounted under `/api/v1/chatbot` by the API app and the connection host. */
export function extractionStreamRoutes() {
  const r = router();
  r.openapi(route, (c) => {
    const { sessionKey, lastEventId: q } = c.req.valid('query');
    const lastEventId = resumeId(c.req.valid('header')['last-event-id'], q);
    const auth = c.get('auth');
    return serveSse(
      c,
      auth.tenant,
      (send) => openExtractionFeed(auth.tenant, sessionKey, lastEventId, send),
      () =>
        assertActive(auth).then(
          () => true,
          (err) => !(err instanceof UnauthorizedError || err instanceof TenantDisabledError),
        ),
    );
  });
  return r;
}
