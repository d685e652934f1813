import { type AiUsage, readAiUsage } from '#shared/ai/usage';
import { router } from '#shared/http/context';
import { listSessions, requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { requireAuth } from '../auth/middleware.ts';
import { sessionUsageRoute, tenantUsageRoute } from './routes.schema.ts';

const countersOf = (u: AiUsage | undefined) => ({
  aiUsageCount: u?.aiCalls ?? 0,
  docAnalysisCount: u?.docAnalyses ?? 0,
  audioTranscribeCount: u?.audioTranscriptions ?? 0,
  totalMessages: u?.messages ?? 0,
  totalCreditsUsed: u?.credits ?? 0,
});

const row = (s: Session, u: AiUsage | undefined) => ({
  mobid: s.mobid,
  mobile_number: s.mobile_number ?? null,
  ...countersOf(u),
});

/** AI telemetry of the caller's tenant: counters per session since it was created. */
export function aiRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(tenantUsageRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const [sessions, usage] = await Promise.all([listSessions(tenant), readAiUsage(tenant)]);
    const bySession = new Map(usage.map((u) => [u.sessionId, u]));
    const rows = sessions.map((s) => row(s, bySession.get(s.sessionId)));
    const sum = (k: keyof AiUsage) =>
      sessions.reduce((n, s) => n + Number(bySession.get(s.sessionId)?.[k] ?? 0), 0);
    return c.json(
      {
        success: true as const,
        stats: {
          totalSessions: sessions.length,
          totalAiCalls: sum('aiCalls'),
          totalDocAnalyses: sum('docAnalyses'),
          totalAudioTranscriptions: sum('audioTranscriptions'),
          totalMessages: sum('messages'),
        },
        sessions: rows,
      },
      200,
    );
  });

  r.openapi(sessionUsageRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const s = await requireSession(tenant, c.req.valid('param').identifier);
    const u = await readAiUsage(tenant, s.sessionId);
    return c.json({ success: true as const, usage: { mobid: s.mobid, ...countersOf(u) } }, 200);
  });
  return r;
}
