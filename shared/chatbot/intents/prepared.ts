import type { Intent, Intents } from '../intents-schema.ts';
import { type Asks, asksOf, type Sign, signsOf } from './guards.ts';
import type { TrainingPhrase } from './matcher.ts';
import { contentKeys } from './vocabulary.ts';

/*
 * An intents file read once per version: its enabled intents, their training phrases and what those
 * phrases carry (signs, kinds of question, words), so a message's guards compare against tables.
 */

export interface Prepared {
  intents: Intent[];
  phrases: TrainingPhrase[];
  policy: Intents['runtime_policy']['confidence_policy'];
  /** Per intent: the signs (guards.ts) its own training phrases carry. */
  signs: Array<Set<Sign>>;
  /** Per intent: whether any of its training phrases asks a price / a booking (`asksOf`). */
  asks: Asks[];
  /** The words of every training phrase; the brain's are added per brain (`vocabularyOf`). */
  phraseTexts: string[];
  /** Per content word (sound key): the intents that use it in a phrase. */
  wordIntents: Map<string, Set<number>>;
}

/** Intents of greetings and thanks: a "hi" before a question is not a second question. */
export const SMALL_TALK = new Set(['greeting', 'thanks', 'goodbye']);

export function prepare(file: Intents): Prepared {
  const intents = file.intents.filter((i) => i.enabled !== false);
  const phrases: TrainingPhrase[] = [];
  const signs = intents.map(() => new Set<Sign>());
  const asks = intents.map(() => ({ price: false, booking: false }));
  intents.forEach((intent, i) => {
    const a = asks[i] as Asks;
    for (const list of Object.values(intent.training_phrases))
      for (const text of list) {
        phrases.push({ intent: i, text });
        for (const s of signsOf(text)) signs[i]?.add(s);
        const x = asksOf(text);
        a.price ||= x.price;
        a.booking ||= x.booking;
      }
  });
  const owners = new Map<string, Set<number>>();
  for (const ph of phrases)
    for (const k of contentKeys(ph.text)) {
      const set = owners.get(k) ?? new Set<number>();
      set.add(ph.intent);
      owners.set(k, set);
    }
  return {
    intents,
    phrases,
    policy: file.runtime_policy.confidence_policy,
    signs,
    asks,
    phraseTexts: phrases.map((p) => p.text),
    wordIntents: owners,
  };
}
