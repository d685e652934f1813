import { z } from '@hono/zod-openapi';
import { json, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { SessionKeyInput } from './knowledge-common.ts';

/**
 * The definitions of the routes of try-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot');

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

export const tryRoute = route({
  method: 'post',
  path: '/try',
  middleware: [requireAuth] as const,
  summary: 'Which tier would answer a message, with the scores and the reply (a dry run: nothing is sent)',
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
  responses: { 200: json(TryAnswer) },
});
