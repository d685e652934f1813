import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { listSessions, requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { dailyUsage, lastDays } from '#shared/usage/daily';
import { SessionIdentifierParam } from '../sessions/identifier.ts';
import { periodEnd, periodOf } from './period.ts';
import { limitOf, setSessionLimit, usageOf, usageOfTenant } from './repository.ts';

const UsageRecord = z
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

function record(s: Session, usage: number, now: Date): z.infer<typeof UsageRecord> {
  const limit = limitOf(s);
  return {
    sessionId: s.sessionId,
    mobid: s.mobid,
    mobile_number: s.mobile_number ?? null,
    session_name: s.name ?? null,
    usage,
    limit,
    remaining: Math.max(0, limit - usage),
    status: s.status,
    dbStatus: s.dbStatus,
    period: periodOf(now),
    resetsAt: periodEnd(now).toISOString(),
  };
}

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

const tags = ['usage'];

/** Message quota per session. Mounted before the session routes: `/usage` is not a session id. */
export function usageRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      security: bearer,
      summary: 'Message usage and quota of every session this month',
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            totalSessions: z.number().int(),
            sessions: z.array(UsageRecord),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const now = new Date();
      const [sessions, usage] = await Promise.all([
        listSessions(tenant),
        usageOfTenant(tenant, periodOf(now)),
      ]);
      const records = sessions.map((s) => record(s, usage.get(s.sessionId) ?? 0, now));
      return c.json({ success: true as const, totalSessions: records.length, sessions: records }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/daily',
      tags,
      security: bearer,
      summary: "Each active session's messages and AI work per UTC day, for the last `days` days",
      request: { query: z.object({ days: z.coerce.number().int().min(1).max(DAILY_MAX_DAYS).default(30) }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            days: z.array(z.string()).openapi({ description: 'The UTC days (`YYYY-MM-DD`), oldest first' }),
            sessions: z.array(
              z.object({
                sessionId: z.string(),
                session_name: z.string().nullable(),
                days: z.array(DailyBucket),
              }),
            ),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { days } = c.req.valid('query');
      const now = Date.now();
      const sessions = (await listSessions(tenant)).filter((s) => s.dbStatus === 'active');
      const out = await Promise.all(
        sessions.map(async (s) => ({
          sessionId: s.sessionId,
          session_name: s.name ?? null,
          days: await dailyUsage(tenant, s.sessionId, days, now),
        })),
      );
      return c.json({ success: true as const, days: lastDays(days, now), sessions: out }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{identifier}',
      tags,
      security: bearer,
      summary: 'Message usage and quota of one sender this month',
      request: { params: SessionIdentifierParam },
      responses: { 200: json(SingleUsage), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { identifier } = c.req.valid('param');
      const s = await requireSession(tenant, identifier);
      const now = new Date();
      const usage = await usageOf(tenant, s.sessionId, periodOf(now));
      return c.json({ success: true as const, identifier, ...record(s, usage, now) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/{identifier}',
      tags,
      security: bearer,
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
      responses: { 200: json(SingleUsage), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { identifier } = c.req.valid('param');
      const { limit } = c.req.valid('json');
      const s = await requireSession(tenant, identifier);
      await setSessionLimit(tenant, s.sessionId, limit);
      const now = new Date();
      const usage = await usageOf(tenant, s.sessionId, periodOf(now));
      const updated = { ...s, messageLimit: limit } as Session;
      return c.json({ success: true as const, identifier, ...record(updated, usage, now) }, 200);
    },
  );
  return r;
}
