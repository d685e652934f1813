import { z } from '@hono/zod-openapi';
import { json, ok, routesTagged } from '#shared/http/schemas';
import { SessionIdentifierParam } from '../sessions/identifier.ts';

/**
 * The definitions of the usage routes (routes.ts): their schemas, which also make /openapi.json.
 */

export const UsageRecord = z
  .object({
    sessionId: z.string(),
    mobid: z.string(),
    mobile_number: z.string().nullable(),
    session_name: z.string().nullable(),
    usage: z.number().int(),
    limit: z.number().int(),
    remaining: z.number().int(),
    status: z.string(),
    dbStatus: z.string(),
    period: z.string().openapi({ description: 'Calendar month (UTC) the usage counts against, `YYYY-MM`' }),
    resetsAt: z.string().openapi({ description: 'When usage starts again at 0 (ISO 8601)' }),
  })
  .openapi('UsageRecord');

const SingleUsage = z.object({ success: z.literal(true), identifier: z.string() }).extend(UsageRecord.shape);

/** The most days one usage-over-time request covers (one Query of that many items per session). */
const DAILY_MAX_DAYS = 90;

const DailyBucket = z
  .object({
    day: z.string().openapi({ description: 'UTC day, `YYYY-MM-DD`' }),
    sent: z.number().openapi({ description: 'Messages sent through the API (counted against the quota)' }),
    received: z.number().openapi({ description: 'Messages received from the network' }),
    botReplies: z.number().openapi({ description: 'Replies the chatbot sent' }),
    aiCalls: z.number(),
    docAnalyses: z.number(),
    audioTranscriptions: z.number(),
    credits: z.number(),
  })
  .openapi('DailyUsage');

const route = routesTagged('usage');

export const allUsageRoute = route({
  method: 'get',
  path: '/',
  summary: 'Message usage and quota of every session this month',
  responses: { 200: ok({ totalSessions: z.number().int(), sessions: z.array(UsageRecord) }) },
});

export const dailyUsageRoute = route({
  method: 'get',
  path: '/daily',
  summary: "Each active session's messages and AI work per UTC day, for the last `days` days",
  request: { query: z.object({ days: z.coerce.number().int().min(1).max(DAILY_MAX_DAYS).default(30) }) },
  responses: {
    200: ok({
      days: z.array(z.string()).openapi({ description: 'The UTC days (`YYYY-MM-DD`), oldest first' }),
      sessions: z.array(
        z.object({
          sessionId: z.string(),
          session_name: z.string().nullable(),
          days: z.array(DailyBucket),
        }),
      ),
    }),
  },
});

export const sessionUsageRoute = route({
  method: 'get',
  path: '/{identifier}',
  summary: 'Message usage and quota of one sender this month',
  request: { params: SessionIdentifierParam },
  responses: { 200: json(SingleUsage) },
});

export const setLimitRoute = route({
  method: 'post',
  path: '/{identifier}',
  summary: "Set a sender's monthly message limit",
  request: {
    params: SessionIdentifierParam,
    body: {
      content: {
        'application/json': {
          schema: z.object({ limit: z.number().int().min(0).max(100_000_000) }),
        },
      },
    },
  },
  responses: { 200: json(SingleUsage) },
});
