import { z } from '@hono/zod-openapi';
import { ok, routesTagged } from '#shared/http/schemas';
import { SessionIdentifierParam } from '../sessions/identifier.ts';

/**
 * The definitions of the AI usage routes (routes.ts): their schemas, which also make /openapi.json.
 */

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

const route = routesTagged('ai');

export const tenantUsageRoute = route({
  method: 'get',
  path: '/usage',
  summary: 'AI usage of every session of the tenant, with totals',
  responses: {
    200: ok({
      stats: z.object({
        totalSessions: z.number().int(),
        totalAiCalls: z.number().int(),
        totalDocAnalyses: z.number().int(),
        totalAudioTranscriptions: z.number().int(),
        totalMessages: z.number().int(),
      }),
      sessions: z.array(SessionUsage),
    }),
  },
});

export const sessionUsageRoute = route({
  method: 'get',
  path: '/usage/{identifier}',
  summary: "One session's AI usage (by mobid, mobile number or session id)",
  request: { params: SessionIdentifierParam },
  responses: { 200: ok({ usage: SingleUsage }) },
});
