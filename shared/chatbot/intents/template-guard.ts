import type { Brain } from '../brain-schema.ts';
import type { Intent } from '../intents-schema.ts';
import { ACTIONS } from './answer.ts';
import { TOPIC_FACTS, topicsOf, vocabularyOf } from './brain-topics.ts';
import { closedDaysNamed } from './days.ts';
import { type DeferReason, HINT_FLOOR, top2 } from './decision.ts';
import { type Asks, asksOf, type Sign, signsOf } from './guards.ts';
import { type Calibration, calibrate, type Scores } from './matcher.ts';
import { type Prepared, SMALL_TALK } from './prepared.ts';
import { contentKeys, saidKeys } from './vocabulary.ts';

/*
 * The last check before a template answer: the chosen intent may be right and its template still
 * wrong for this message (a negation, a second question, a thing the answer does not list). Each
 * reason is a `DeferReason` the decision reports.
 */

/** Why a template answer for the chosen intent could be wrong (docs/chatbot.md, "When the intents defer"). */
export function guard(
  p: Prepared,
  chosen: number,
  match: 'rule' | 'semantic',
  cal: Calibration,
  text: string,
  brain: Brain | undefined,
  parts: Scores[],
): DeferReason | undefined {
  // One word, with at most politeness around it, names a topic, not a question: a meaningful word
  // that several intents use ("doctor", "doctor pls") or a question word alone ("സമയം", time).
  // With a second word ("doctor innu undo", "when is the doctor") the scores decide.
  const words = contentKeys(text);
  if (
    match === 'semantic' &&
    !SMALL_TALK.has((p.intents[chosen] as Intent).action) &&
    saidKeys(text).length === 1 &&
    (words.length === 0 || (p.wordIntents.get(words[0] as string)?.size ?? 0) > 1)
  )
    return 'close second';
  if (wrongKind(p, chosen, text)) return 'other question';
  const own = p.signs[chosen] as Set<Sign>;
  for (const sign of signsOf(text)) if (!own.has(sign)) return sign;
  for (const part of parts) {
    const r = top2(part.rule);
    const raw = top2(part.raw);
    const sem = calibrate(cal, raw.score);
    const best = r.score >= sem ? r : raw;
    const other = p.intents[best.best];
    if (best.best === chosen || !other || SMALL_TALK.has(other.action)) continue;
    if (Math.max(r.score, sem) >= HINT_FLOOR) return 'several questions';
  }
  // A word only another intent's phrases use ("warranty" against a repair request) is that intent's.
  for (const k of words) {
    const users = p.wordIntents.get(k);
    if (users?.size === 1 && !users.has(chosen)) return 'close second';
  }
  // A thing of the brain (a service, a product, a doctor) the chosen intent's answer does not list.
  const fact = ACTIONS[(p.intents[chosen] as Intent).action]?.fact;
  for (const k of words) {
    const topic = topicsOf(brain).get(k);
    if (topic && !p.wordIntents.get(k)?.has(chosen) && !(fact && TOPIC_FACTS[topic].includes(fact)))
      return 'other question';
  }
  if (vocabularyOf(p, brain).unknownIn(text).length > 0) return 'unknown words';
  if (closedDaysNamed(text, brain).length > 0) return 'closed day';
  return undefined;
}

/** The answers (`ACTIONS` facts) that state an amount of money. */
const PRICE_FACTS = new Set(['fees', 'services', 'stock']);

/**
 * Whether the chosen intent's answer is of the wrong kind for what the message asks (guards.ts,
 * `asksOf`): a price asked of an answer with no price (booking steps, hours, an address), or a
 * booking asked (and no price) of an answer that is a price list, or no price asked of the
 * consultation fees. A known action is judged by its
 * answer's fact, whatever its training phrases say; a tenant's own action by its phrases.
 */
function wrongKind(p: Prepared, chosen: number, text: string): boolean {
  const asks = asksOf(text);
  const fact = ACTIONS[(p.intents[chosen] as Intent).action]?.fact;
  // The consultation fees answer nothing but a price: a message that asks none ("should I see the
  // doctor") is about something else.
  if (fact === 'fees' && !asks.price) return true;
  if (!asks.price && !asks.booking) return false;
  const own = p.asks[chosen] as Asks;
  const givesPrice = fact ? PRICE_FACTS.has(fact) : own.price;
  const givesBooking = fact ? fact === 'booking' : own.booking;
  if (asks.price) return !givesPrice;
  return givesPrice && !givesBooking;
}
