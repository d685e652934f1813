import { createModelChain, type ModelChain } from '#shared/ai/chain';
import { type IntentExplanation, planTurn } from '#shared/chatbot/decide';
import { resolveBrain, resolvePrompt } from '#shared/chatbot/knowledge';
import type { Turn } from './history.ts';

export interface ModelAnswer {
  providerTier: 'primary' | 'fallback' | 'bedrock';
  keyIndex: number;
  model: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  latencyMs: number;
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
 * One turn: the plan of `planTurn` (shared/chatbot/decide.ts, the evaluation order), then, when
 * the plan leaves the turn to the model, the model chain with the session's brain and persona and
 * the chat's recent turns.
 */
export async function evaluateTurn(input: TurnInput): Promise<Decision> {
  const plan = await planTurn(input);
  if (plan.kind !== 'model') return plan;
  return askModel(input, plan);
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
