import type { z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { listSessions, requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { dailyUsage, lastDays } from '#shared/usage/daily';
import { periodEnd, periodOf } from './period.ts';
import { limitOf, setSessionLimit, usageOf, usageOfTenant } from './repository.ts';
import {
  allUsageRoute,
  dailyUsageRoute,
  sessionUsageRoute,
  setLimitRoute,
  type UsageRecord,
} from './routes.schema.ts';

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

/** Message quota per session. Mounted before the session routes: `/usage` is not a session id. */
export function usageRoutes() {
  const r = router();

  r.openapi(allUsageRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const now = new Date();
    const [sessions, usage] = await Promise.all([listSessions(tenant), usageOfTenant(tenant, periodOf(now))]);
    const records = sessions.map((s) => record(s, usage.get(s.sessionId) ?? 0, now));
    return c.json({ success: true as const, totalSessions: records.length, sessions: records }, 200);
  });

  r.openapi(dailyUsageRoute, async (c) => {
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
  });

  r.openapi(sessionUsageRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { identifier } = c.req.valid('param');
    const s = await requireSession(tenant, identifier);
    const now = new Date();
    const usage = await usageOf(tenant, s.sessionId, periodOf(now));
    return c.json({ success: true as const, identifier, ...record(s, usage, now) }, 200);
  });

  r.openapi(setLimitRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { identifier } = c.req.valid('param');
    const { limit } = c.req.valid('json');
    const s = await requireSession(tenant, identifier);
    await setSessionLimit(tenant, s.sessionId, limit);
    const now = new Date();
    const usage = await usageOf(tenant, s.sessionId, periodOf(now));
    const updated = { ...s, messageLimit: limit } as Session;
    return c.json({ success: true as const, identifier, ...record(updated, usage, now) }, 200);
  });
  return r;
}
