import { createRoute, z } from '@hono/zod-openapi';
import { planTurn } from '#shared/chatbot/decide';
import { rulesForKeys } from '#shared/chatbot/rules';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { keysFor, SessionKeyInput } from './knowledge-common.ts';

const tags = ['chatbot'];

/** As much text as one customer turn can carry to the chatbot (a WhatsApp text's own limit). */
const TRY_MAX_CHARS = 4096;

const Candidate = z
  .object({ id: z.string(), score: z.number(), match: z.enum(['rule', 'semantic']) })
  .openapi('TryIntentCandidate');

const TryAnswer = z
  .object({
    success: z.literal(true),
    sessionKey: z.string(),
    tier: z.enum(['rule', 'intent', 'model']).nullable().openapi({
      description: 'who would answer; null: nobody (see `silentReason`)',
    }),
    silentReason: z.enum(['pure extractor', 'chatbot disabled']).nullable(),
    rule: z
      .object({ id: z.string(), mobid: z.string(), triggerType: z.string(), keyword: z.string() })
      .nullable()
      .openapi({
        description:
          'the rule that matched (a `text` rule answers; `ai_response` / `ai_fallback` guide the model)',
      }),
    intent: Candidate.nullable().openapi({ description: 'the intent that would answer, with its score' }),
    candidates: z.array(Candidate).openapi({ description: "the intent engine's best intents and scores" }),
    deferReason: z.string().nullable().openapi({
      description:
        'why the intent engine left the message to the model (docs/chatbot.md, "Explaining a decision")',
    }),
    reply: z.string().nullable().openapi({
      description: 'the reply of a rule or intent; null for the model tier, which is not called',
    }),
  })
  .openapi('ChatbotTry');

/**
 * `POST /try` (mounted under `/api/v1/chatbot`; docs/chatbot.md, "Trying a message"): the chatbot's
 * decision for a typed message, by the same evaluation order as a real turn (planTurn), without
 * calling the model, storing or sending anything.
 */
export function tryRoutes() {
  const r = router();
  r.openapi(
    createRoute({
      method: 'post',
      path: '/try',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary:
        'Which tier would answer a message, with the scores and the reply (a dry run: nothing is sent)',
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({
                sessionKey: SessionKeyInput.optional().openapi({
                  description: 'the session (id, mobid or number) or key to try it on; default `global`',
                }),
                text: z.string().trim().min(1).max(TRY_MAX_CHARS),
              }),
            },
          },
        },
      },
      responses: { 200: json(TryAnswer), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { sessionKey = GLOBAL_KEY, text } = c.req.valid('json');
      const keys = await keysFor(tenant, sessionKey);
      const plan = await planTurn({ tenantId: tenant, keys, text, lastText: text });
      const ruleId = plan.kind === 'silent' ? undefined : plan.ruleId;
      const rule = ruleId ? (await rulesForKeys(tenant, keys)).find((x) => x.id === ruleId) : undefined;
      const explanation = plan.kind === 'silent' ? undefined : plan.explanation;
      return c.json(
        {
          success: true as const,
          sessionKey,
          tier: plan.kind === 'silent' ? null : plan.kind === 'model' ? ('model' as const) : plan.tier,
          silentReason: plan.kind === 'silent' ? plan.reason : null,
          rule: rule
            ? { id: rule.id, mobid: rule.mobid, triggerType: rule.triggerType, keyword: rule.keyword }
            : null,
          intent: plan.kind === 'reply' ? (plan.intent ?? null) : null,
          candidates: explanation?.candidates ?? [],
          deferReason: explanation?.deferReason ?? null,
          reply: plan.kind === 'reply' ? plan.text : null,
        },
        200,
      );
    },
  );
  return r;
}
