import { readFileSync } from 'node:fs';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import type { IntentDecision, IntentEngine } from '../../shared/chatbot/intents/index.ts';

/** One labelled question: `intent` null means "must go to the model". */
export interface FaqItem {
  q: string;
  intent: string | null;
  variant?: string;
}

const data = (name: string) => JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), 'utf8'));

export const clinicIntents = (): Intents => Intents.parse(data('clinic-intents.json'));
export const clinicBrain = (): Brain => Brain.parse(data('clinic-brain.json'));
export const faqSet = (): FaqItem[] => data('faq.json');

export interface FaqResult {
  total: number;
  answered: number;
  wrong: Array<FaqItem & { got: string; score: number }>;
  /** Questions with a label that went to the model anyway. */
  deferred: Array<FaqItem & { decision: IntentDecision }>;
}

/** Runs every question through the engine: answered with no model call, and answered wrongly. */
export function runFaq(engine: IntentEngine, brain: Brain, items: FaqItem[]): FaqResult {
  const r: FaqResult = { total: items.length, answered: 0, wrong: [], deferred: [] };
  for (const item of items) {
    const d = engine.decide(item.q, brain);
    if (d.kind === 'answer') {
      r.answered++;
      if (d.intentId !== item.intent) r.wrong.push({ ...item, got: d.intentId, score: d.score });
    } else if (item.intent !== null) r.deferred.push({ ...item, decision: d });
  }
  return r;
}
