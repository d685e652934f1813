import { z } from 'zod';

/** Limits of one tenant's intents file (docs/chatbot.md, "Knowledge: brain, prompt, intents"). */
export const INTENTS_LIMITS = {
  intents: 2_000,
  phrases: 20_000,
  phraseLength: 300,
} as const;

const Phrase = z.string().trim().min(1).max(INTENTS_LIMITS.phraseLength);
const LanguageCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'a language code such as `en`, `ml` or `en-IN`');

/** The thresholds of the intent engine; other keys of the user's file are kept. */
export const ConfidencePolicy = z
  .object({
    /** A rule-like (near exact) match at or above this answers with no model call. */
    rule_match_no_ai: z.number().min(0).max(1).default(0.9),
    /** A semantic (paraphrase) match at or above this answers with no model call. */
    semantic_match_no_ai: z.number().min(0).max(1).default(0.84),
    /** A matched intent whose answer is a plain template skips the model. */
    skip_llm_simple_template: z.boolean().default(true),
  })
  .loose();
export type ConfidencePolicy = z.infer<typeof ConfidencePolicy>;

export const RuntimePolicy = z
  .object({ confidence_policy: ConfidencePolicy.default(() => ConfidencePolicy.parse({})) })
  .loose();

export const Intent = z
  .object({
    id: z.string().trim().min(1).max(100),
    enabled: z.boolean().default(true),
    category: z.string().trim().min(1).max(100),
    /** Names what answering means, e.g. `answer_hours`: a reply template filled from the brain. */
    action: z.string().trim().min(1).max(100),
    /** Example questions per language code; `en` and `ml` expected. */
    training_phrases: z.record(LanguageCode, z.array(Phrase)),
    /** A fixed answer per language code: the intent's reply when it matches (docs/chatbot.md, intent engine). */
    responses: z.record(LanguageCode, z.string().min(1).max(4_096)).optional(),
  })
  .loose();
export type Intent = z.infer<typeof Intent>;

/** A tenant's intents file (`POST /api/chatbot/intents`). */
export const Intents = z
  .object({
    meta: z
      .object({ industry: z.string().max(50).optional() })
      .loose()
      .default({}),
    runtime_policy: RuntimePolicy.default(() => RuntimePolicy.parse({})),
    intents: z.array(Intent).max(INTENTS_LIMITS.intents),
  })
  .loose()
  .superRefine((v, ctx) => {
    let total = 0;
    const seen = new Set<string>();
    v.intents.forEach((intent, i) => {
      if (seen.has(intent.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['intents', i, 'id'],
          message: `duplicate intent id "${intent.id}"`,
        });
      }
      seen.add(intent.id);
      for (const phrases of Object.values(intent.training_phrases)) total += phrases.length;
    });
    if (total > INTENTS_LIMITS.phrases) {
      ctx.addIssue({
        code: 'custom',
        path: ['intents'],
        message: `at most ${INTENTS_LIMITS.phrases} training phrases in all (got ${total})`,
      });
    }
  });
/** A parsed intents file: defaults applied (thresholds, `enabled`). */
export type Intents = z.infer<typeof Intents>;
/** An intents file as a user writes it (defaults may be left out). */
export type IntentsInput = z.input<typeof Intents>;
