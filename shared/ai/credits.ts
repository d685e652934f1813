import type { TokenUsage } from './types.ts';

/**
 * The credit rule (docs/chatbot.md, "Credits"): one credit per 1,000 input-token equivalents, where
 * an input token counts 1, a cache read 0.1, a cache write 1.25 and an output token 5 (the providers'
 * relative prices). Rules and intents answer without the model and cost 0 credits.
 */
export const CREDIT_WEIGHTS = { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 } as const;
export const TOKENS_PER_CREDIT = 1000;

/** Credits for one model call, to three decimals (a thousandth of a credit is one input token). */
export function creditsFor(usage: Partial<TokenUsage> | undefined): number {
  if (!usage) return 0;
  const w =
    (usage.input ?? 0) * CREDIT_WEIGHTS.input +
    (usage.cacheRead ?? 0) * CREDIT_WEIGHTS.cacheRead +
    (usage.cacheWrite ?? 0) * CREDIT_WEIGHTS.cacheWrite +
    (usage.output ?? 0) * CREDIT_WEIGHTS.output;
  return Math.round(Math.max(0, w)) / TOKENS_PER_CREDIT;
}
