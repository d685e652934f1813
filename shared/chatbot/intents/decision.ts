import type { Brain } from '../brain-schema.ts';
import type { Sign } from './guards.ts';

/*
 * What the intent engine answers and the thresholds it answers by: the shapes every engine (n-gram
 * or embedding) returns and the few numbers that decide between a template answer and the model.
 */

/** One intent the message may be about, with its calibrated score and the kind of evidence. */
export interface IntentCandidate {
  id: string;
  score: number;
  match: 'rule' | 'semantic';
}

/**
 * Why the intent engine left a message to the model (docs/chatbot.md, "Explaining a decision"):
 * - `no match`: no intent scored at least HINT_FLOOR;
 * - `low confidence`: the best intent is under its threshold (`semantic_match_no_ai`);
 * - `close second`: the best is over it, but another intent is close behind (`leads`);
 * - `no template answer`: the template could not be filled from the brain in the message's language;
 * - `templates off`: `skip_llm_simple_template` is false, so the model always words the answer;
 * - `negation`, `other action`, `complaint`, `other question`: the message carries that sign
 *   (guards.ts) and none of the matched intent's training phrases does ("is the doctor not coming
 *   today", "cancel my token", "washing machine vila ethra" against a repair request); `other question` also
 *   when it names a service, product or doctor of the brain that the intent's answer does not list;
 * - `close second` also when one meaningful word is shared by several intents ("doctor"), or a word
 *   only another intent's phrases use is in the message;
 * - `several questions`: another part of the message is about another intent;
 * - `unknown words`: the message names something (a service, a product, a place) that neither the
 *   intents' phrases nor the brain mention ("how much for a pedicure", "do you take insurance");
 * - `closed day`: the message names a day the brain's hours say is closed (a booking, a slot or even
 *   "are you open on Sunday" on a closed day: the model words the "no").
 */
export type DeferReason =
  | 'no match'
  | 'low confidence'
  | 'close second'
  | 'no template answer'
  | 'templates off'
  | Sign
  | 'several questions'
  | 'unknown words'
  | 'closed day';

/** Candidates a decision reports: the best few, enough to see what came close. */
export const CANDIDATES_SHOWN = 3;

/** What the intent engine decided for one message (docs/chatbot.md, "Intent engine"). */
export type IntentDecision =
  | {
      kind: 'answer';
      intentId: string;
      score: number;
      match: 'rule' | 'semantic';
      reply: string;
      candidates: IntentCandidate[];
    }
  | {
      kind: 'model';
      intentId?: string;
      score?: number;
      hint?: string;
      reason: DeferReason;
      candidates: IntentCandidate[];
    };

export interface IntentEngine {
  decide(text: string, brain?: Brain): IntentDecision;
}

export interface AsyncIntentEngine {
  decide(text: string, brain?: Brain): Promise<IntentDecision>;
}

/**
 * The best intent must lead the second best by MARGIN (calibrated scores), or have at least ODDS
 * times its odds (p / (1 − p)): near the top the logistic calibration squeezes scores together, so
 * 0.99 against 0.95 (odds 99 against 19) is a clear lead though under 0.05 apart, while 0.93 against
 * 0.92 is not.
 */
export const MARGIN = 0.05;
export const ODDS = 2;
/** A rule-like score of 1 is counted as this for the odds (no infinite odds). */
const RULE_CAP = 0.99;

const odds = (p: number) => {
  const q = Math.min(p, RULE_CAP);
  return q / (1 - q);
};
/** Whether `best` leads `second` clearly enough to answer (MARGIN or ODDS). */
export const leads = (best: number, second: number) =>
  best - second >= MARGIN || odds(best) >= ODDS * odds(second);
/** Below this calibrated score a deferred decision names no intent (no hint for the model). */
export const HINT_FLOOR = 0.5;

/** The best and second-best intent by one score array. */
export function top2(scores: ArrayLike<number>) {
  let best = -1;
  let second = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (best < 0 || s > (scores[best] as number)) {
      if (best >= 0) second = Math.max(second, scores[best] as number);
      best = i;
    } else second = Math.max(second, s);
  }
  return { best, score: best < 0 ? 0 : (scores[best] as number), second };
}

/** A score as reported: three decimals. */
export const round = (x: number) => Math.round(x * 1000) / 1000;
