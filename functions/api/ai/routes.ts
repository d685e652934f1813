import { createRoute, z } from '@hono/zod-openapi';
import { type AiUsage, readAiUsage } from '#shared/ai/usage';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { listSessions, requireSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { requireAuth } from '../auth/middleware.ts';
import { SessionIdentifierParam } from '../sessions/identifier.ts';

const counters = {
  aiUsageCount: z.number().int().openapi({ description: 'Model calls (the chatbot, document analysis)' }),
  docAnalysisCount: z.number().int(),
  audioTranscribeCount: z.number().int(),
  totalMessages: z.number().int().openapi({ description: 'Automatic replies sent' }),
  totalCreditsUsed: z.number().openapi({ description: 'Credits of the model calls (docs/chatbot.md)' }),
};

const SessionUsage = z
  .object({ mobid: z.string(), mobile_number: z.string().nullable(), ...counters })
  .openapi('AiSessionUsage');
const SingleUsage = z.object({ mobid: z.string(), ...counters }).openapi('AiUsage');

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

const tags = ['ai'];

/** AI telemetry of the caller's tenant: counters per session since it was created. */
export function aiRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(
    createRoute({
      method: 'get',
      path: '/usage',
      tags,
      security: bearer,
      summary: 'AI usage of every session of the tenant, with totals',
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            stats: z.object({
              totalSessions: z.number().int(),
              totalAiCalls: z.number().int(),
              totalDocAnalyses: z.number().int(),
              totalAudioTranscriptions: z.number().int(),
              totalMessages: z.number().int(),
            }),
            sessions: z.array(SessionUsage),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
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
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/usage/{identifier}',
      tags,
      security: bearer,
      summary: "One session's AI usage (by mobid, mobile number or session id)",
      request: { params: SessionIdentifierParam },
      responses: {
        200: json(z.object({ success: z.literal(true), usage: SingleUsage })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const s = await requireSession(tenant, c.req.valid('param').identifier);
      const u = await readAiUsage(tenant, s.sessionId);
      return c.json({ success: true as const, usage: { mobid: s.mobid, ...countersOf(u) } }, 200);
    },
  );
  return r;
}
