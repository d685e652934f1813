import type { Brain } from '../brain-schema.ts';
import type { Intent } from '../intents-schema.ts';
import { answerFor, type Lang } from './answer.ts';
import {
  CANDIDATES_SHOWN,
  HINT_FLOOR,
  type IntentCandidate,
  type IntentDecision,
  leads,
  round,
  top2,
} from './decision.ts';
import { type Calibration, calibrate, type Scores } from './matcher.ts';
import { detectLanguage } from './normalise.ts';
import type { Prepared } from './prepared.ts';
import { guard } from './template-guard.ts';

/*
 * From one message's scores to a decision: the intent that clearly leads (rule-like or semantic),
 * its guards, then its template answer; otherwise the model, with the reason and a hint. The same
 * for every matcher, which only supplies the scores.
 */

/** The best intents by their strongest evidence (a rule-like match, else the calibrated semantic score). */
function candidatesOf(p: Prepared, s: Scores, cal: Calibration): IntentCandidate[] {
  const all: IntentCandidate[] = [];
  p.intents.forEach((intent, i) => {
    const rule = s.rule[i] ?? 0;
    const semantic = calibrate(cal, s.raw[i] ?? 0);
    const best =
      rule >= semantic
        ? { score: rule, match: 'rule' as const }
        : { score: semantic, match: 'semantic' as const };
    if (best.score > 0) all.push({ id: intent.id, score: round(best.score), match: best.match });
  });
  return all.sort((a, b) => b.score - a.score).slice(0, CANDIDATES_SHOWN);
}

/** The decision on a text's scores, with the best candidates it was chosen from. */
export function decideFrom(...args: Parameters<typeof decideOn>): IntentDecision {
  const [p, s, cal] = args;
  const candidates = candidatesOf(p, s, cal);
  return { ...decideOn(...args), candidates } as IntentDecision;
}

type Undescribed<T> = T extends unknown ? Omit<T, 'candidates'> : never;

function decideOn(
  p: Prepared,
  s: Scores,
  cal: Calibration,
  text: string,
  brain: Brain | undefined,
  parts: Scores[],
): Undescribed<IntentDecision> {
  const { policy, intents } = p;
  // Calibration is monotonic: the best and second-best raw scores are the best and second-best
  // calibrated ones, so only those two are calibrated.
  const rule = top2(s.rule);
  const raw = top2(s.raw);
  const semBest = calibrate(cal, raw.score);
  const semSecond = calibrate(cal, raw.second);
  let match: 'rule' | 'semantic' = 'semantic';
  let chosen = -1;
  let score = 0;
  if (rule.best >= 0 && rule.score >= policy.rule_match_no_ai) {
    // A rule-like match competes with every other intent's best evidence (rule or semantic).
    const otherSemantic = raw.best === rule.best ? semSecond : semBest;
    if (leads(rule.score, Math.max(rule.second, otherSemantic))) {
      match = 'rule';
      chosen = rule.best;
      score = rule.score;
    }
  }
  if (chosen < 0) {
    if (raw.best >= 0 && semBest >= policy.semantic_match_no_ai && leads(semBest, semSecond)) {
      match = 'semantic';
      chosen = raw.best;
      score = semBest;
    } else {
      const useRule = rule.best >= 0 && rule.score > semBest;
      const intent = intents[useRule ? rule.best : raw.best];
      const best = useRule ? rule.score : semBest;
      if (!intent || best < HINT_FLOOR) return { kind: 'model', reason: 'no match' };
      return {
        kind: 'model',
        reason: best >= policy.semantic_match_no_ai ? 'close second' : 'low confidence',
        intentId: intent.id,
        score: round(best),
        hint: `The customer may be asking about "${intent.id}" (${intent.category}); not certain enough to answer from a template.`,
      };
    }
  }
  const intent = intents[chosen] as Intent;
  const unsafe = guard(p, chosen, match, cal, text, brain, parts);
  if (unsafe) {
    return {
      kind: 'model',
      reason: unsafe,
      intentId: intent.id,
      score: round(score),
      hint: `The customer asks about "${intent.id}" (${intent.category}), but a template answer could be wrong (${unsafe}).`,
    };
  }
  const lang: Lang = detectLanguage(text);
  const reply = answerFor(intent, lang, brain, text);
  if (reply === undefined) {
    return {
      kind: 'model',
      reason: 'no template answer',
      intentId: intent.id,
      score: round(score),
      hint: `The customer asks about "${intent.id}" (${intent.category}); no ${lang} template answer could be filled from the brain.`,
    };
  }
  if (!policy.skip_llm_simple_template) {
    return {
      kind: 'model',
      reason: 'templates off',
      intentId: intent.id,
      score: round(score),
      hint: `The customer asks about "${intent.id}" (${intent.category}). The facts to answer with: ${reply}`,
    };
  }
  return { kind: 'answer', intentId: intent.id, score: round(score), match, reply };
}
