import { createModelChain, type ModelChain } from '#shared/ai/chain';
import { getIntents, resolveBrain, resolvePrompt } from '#shared/chatbot/knowledge';
import { rulesForKeys } from '#shared/chatbot/rules';
import { readSwitches } from '#shared/chatbot/switches';
import type { Turn } from './history.ts';
import { buildIntentEngine, type DeferReason, type IntentCandidate } from './intents/index.ts';
import { matchRule } from './rules/match.ts';

export interface ModelAnswer {
  providerTier: 'primary' | 'fallback' | 'bedrock';
  keyIndex: number;
  model: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  latencyMs: number;
}

/**
 * What the intent engine saw in a turn it was asked about (docs/chatbot.md, "Explaining a decision"):
 * the best intents with their scores, and why it left the turn to the model (null when it answered).
 */
export interface IntentExplanation {
  candidates: IntentCandidate[];
  deferReason: DeferReason | 'no intents' | null;
}

/** What the chatbot decided for one turn (docs/chatbot.md, "Evaluation order"). */
export type Decision =
  | { kind: 'silent'; reason: 'pure extractor' | 'chatbot disabled' | 'human takeover' }
  | {
      kind: 'reply';
      text: string;
      tier: 'rule' | 'intent' | 'model';
      ruleId?: string;
      intent?: { id: string; score: number; match: 'rule' | 'semantic' };
      explanation?: IntentExplanation;
      model?: ModelAnswer;
    }
  | { kind: 'failed'; tier: 'model'; ruleId?: string; explanation?: IntentExplanation; error: string };

export interface TurnInput {
  tenantId: string;
  sessionId: string;
  /** Session keys in precedence order (sessionKeysOf). */
  keys: string[];
  /** The customer's text for this turn (every message since the last reply, joined). */
  text: string;
  /** The newest message's own text: an `exact` rule can match it inside a burst. */
  lastText: string;
  /** The chat's recent turns, oldest first, ending with this one. */
  turns: Turn[];
}

let chain: ModelChain | undefined;
const modelChain = () => {
  chain ??= createModelChain();
  return chain;
};

/**
 * The evaluation order, for one turn:
 * 1. pure extractor mode on → nothing (messages are still stored, streamed and forwarded);
 * 2. static rules, even with the chatbot disabled: a `text` rule answers at once with no model call;
 *    an `ai_response` rule asks the model with its `response` as extra instructions;
 * 3. only with the chatbot enabled: the intent engine (a confident templated answer, no model call);
 * 4. then the model chain with the session's brain and persona and the chat's recent turns.
 */
export async function evaluateTurn(input: TurnInput): Promise<Decision> {
  const { tenantId, keys, text } = input;
  const [switches, rules] = await Promise.all([readSwitches(tenantId, keys), rulesForKeys(tenantId, keys)]);
  if (switches.pureExtractor) return { kind: 'silent', reason: 'pure extractor' };

  // The newest message alone first (an exact rule inside a burst), then the whole turn.
  const onLast = matchRule(rules, input.lastText, keys);
  const matched = onLast && onLast.triggerType !== 'ai_fallback' ? onLast : matchRule(rules, text, keys);
  // An `ai_fallback` rule belongs to the model step: only with the chatbot on, after the intents.
  const fallback = matched?.triggerType === 'ai_fallback' ? matched : undefined;
  const rule = fallback ? undefined : matched;
  if (rule?.replyType === 'text')
    return { kind: 'reply', text: rule.response, tier: 'rule', ruleId: rule.id };
  if (rule?.replyType === 'ai_response') {
    return askModel(input, { instructions: rule.response, ruleId: rule.id });
  }
  if (!switches.chatbotEnabled) return { kind: 'silent', reason: 'chatbot disabled' };

  const [intents, brain] = await Promise.all([getIntents(tenantId), resolveBrain(tenantId, keys)]);
  let hint: string | undefined;
  let explanation: IntentExplanation = { candidates: [], deferReason: 'no intents' };
  if (intents) {
    // Built once per intents version and cached by the engine, so a warm consumer does not rebuild it.
    const d = buildIntentEngine(intents).decide(text, brain?.brain);
    if (d.kind === 'answer') {
      return {
        kind: 'reply',
        text: d.reply,
        tier: 'intent',
        intent: { id: d.intentId, score: d.score, match: d.match },
        explanation: { candidates: d.candidates, deferReason: null },
      };
    }
    hint = d.hint;
    explanation = { candidates: d.candidates, deferReason: d.reason };
  }
  if (fallback?.replyType === 'text')
    return { kind: 'reply', text: fallback.response, tier: 'rule', ruleId: fallback.id, explanation };
  return askModel(input, {
    instructions: [fallback?.response, hint].filter(Boolean).join('\n\n') || undefined,
    ruleId: fallback?.id,
    brain: brain?.brain,
    brainResolved: true,
    explanation,
  });
}

async function askModel(
  input: TurnInput,
  opt: {
    instructions?: string;
    ruleId?: string;
    brain?: unknown;
    brainResolved?: boolean;
    explanation?: IntentExplanation;
  },
): Promise<Decision> {
  const { tenantId, sessionId, keys } = input;
  const [brain, prompt] = await Promise.all([
    opt.brainResolved ? opt.brain : resolveBrain(tenantId, keys).then((b) => b?.brain),
    resolvePrompt(tenantId, keys),
  ]);
  try {
    const r = await modelChain().reply({
      tenantId,
      sessionId,
      system: { brain, persona: prompt?.prompt, instructions: opt.instructions },
      turns: input.turns,
    });
    return {
      kind: 'reply',
      text: r.text,
      tier: 'model',
      ruleId: opt.ruleId,
      explanation: opt.explanation,
      model: {
        providerTier: r.tier,
        keyIndex: r.keyIndex,
        model: r.model,
        usage: r.usage,
        latencyMs: r.latencyMs,
      },
    };
  } catch (err) {
    if ((err as Error)?.name !== 'ModelUnavailableError') throw err;
    return {
      kind: 'failed',
      tier: 'model',
      ruleId: opt.ruleId,
      explanation: opt.explanation,
      error: (err as Error).message,
    };
  }
}
