import { buildIntentEngine, type DeferReason, type IntentCandidate } from './intents/index.ts';
import { getIntents, resolveBrain } from './knowledge.ts';
import { matchRule } from './rule-match/match.ts';
import { rulesForKeys } from './rules.ts';
import { readSwitches } from './switches.ts';

/**
 * What the intent engine saw in a turn it was asked about (docs/chatbot.md, "Explaining a decision"):
 * the best intents with their scores, and why it left the turn to the model (null when it answered).
 */
export interface IntentExplanation {
  candidates: IntentCandidate[];
  deferReason: DeferReason | 'no intents' | null;
}

/**
 * Who answers a turn, decided without calling the model or sending anything: the chatbot consumer
 * (functions/chatbot/evaluate.ts) goes on to ask the model when the plan says so, and the dry-run
 * route (`POST /api/v1/chatbot/try`) shows the plan as it is. One owner for the evaluation order.
 */
export type Plan =
  | { kind: 'silent'; reason: 'pure extractor' | 'chatbot disabled' }
  | {
      kind: 'reply';
      text: string;
      tier: 'rule' | 'intent';
      ruleId?: string;
      intent?: { id: string; score: number; match: 'rule' | 'semantic' };
      explanation?: IntentExplanation;
    }
  | {
      kind: 'model';
      /** Extra instructions: an `ai_response` rule's response and the intent engine's hint. */
      instructions?: string;
      ruleId?: string;
      /** The session's brain, when the plan already resolved it (the intent step needs it). */
      brain?: unknown;
      brainResolved: boolean;
      explanation?: IntentExplanation;
    };

export interface PlanInput {
  tenantId: string;
  /** Session keys in precedence order (sessionKeysOf). */
  keys: string[];
  /** The customer's text for this turn (every message since the last reply, joined). */
  text: string;
  /** The newest message's own text: an `exact` rule can match it inside a burst. */
  lastText: string;
}

/**
 * The evaluation order, for one turn (docs/chatbot.md, "Evaluation order"):
 * 1. pure extractor mode on → nothing (messages are still stored, streamed and forwarded);
 * 2. static rules, even with the chatbot disabled: a `text` rule answers at once with no model call;
 *    an `ai_response` rule asks the model with its `response` as extra instructions;
 * 3. only with the chatbot enabled: the intent engine (a confident templated answer, no model call);
 * 4. then the model chain with the session's brain and persona and the chat's recent turns.
 * A chat's human takeover comes before all of this and is the caller's (it is per chat, not per text).
 */
export async function planTurn(input: PlanInput): Promise<Plan> {
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
    return { kind: 'model', instructions: rule.response, ruleId: rule.id, brainResolved: false };
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
  return {
    kind: 'model',
    instructions: [fallback?.response, hint].filter(Boolean).join('\n\n') || undefined,
    ruleId: fallback?.id,
    brain: brain?.brain,
    brainResolved: true,
    explanation,
  };
}
