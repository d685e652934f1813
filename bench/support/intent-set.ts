import { readFileSync } from 'node:fs';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import type { ProfileName } from '#shared/chatbot/session-keys';
import { PROFILE_TEMPLATES } from '../../functions/api/chatbot/profiles/index.ts';
import { buildIntentEngine, type IntentDecision } from '../../shared/chatbot/intents/index.ts';

/**
 * The labelled set of customer turns (bench/data/intent-set.json) against the shipped templates:
 * `intent` null means "must go to the model"; `why` names the kind of turn (negation, other action,
 * complaint, several questions, closed day, missing fact, …), which the engine may catch earlier
 * than by that guard (most such turns are already under the threshold).
 * `split` `tune` may be used to fit the calibration; `heldout` never is.
 */
export interface SetItem {
  template: ProfileName;
  lang: 'en' | 'ml' | 'manglish';
  split: 'tune' | 'heldout';
  intent: string | null;
  why?: string;
  q: string;
}

export const intentSet = (): SetItem[] =>
  JSON.parse(readFileSync(new URL('../data/intent-set.json', import.meta.url), 'utf8'));

/** bench/data/intent-blind.json: same shape, written after the engine was finished (bench/intent-blind.ts). */
/** A blind set: `intent-blind` (the first) or `intent-blind2` (written after the first was seen). */
export const blindSet = (name = 'intent-blind'): SetItem[] =>
  JSON.parse(readFileSync(new URL(`../data/${name}.json`, import.meta.url), 'utf8'));

export const templateEngine = (name: ProfileName) => {
  const t = PROFILE_TEMPLATES[name];
  return { engine: buildIntentEngine(Intents.parse(t.intents)), brain: Brain.parse(t.brain) };
};

export interface Outcome {
  item: SetItem;
  decision: IntentDecision;
  /** Answered with no model call. */
  answered: boolean;
  /** Answered, and not with the labelled intent (a must-model turn answered at all is wrong). */
  wrong: boolean;
}

export function runSet(items: SetItem[]): Outcome[] {
  return items.map((item) => {
    const { engine, brain } = templateEngine(item.template);
    const decision = engine.decide(item.q, brain);
    const answered = decision.kind === 'answer';
    return { item, decision, answered, wrong: answered && decision.intentId !== item.intent };
  });
}
