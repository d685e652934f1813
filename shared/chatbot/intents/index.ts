import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Brain } from '../brain-schema.ts';
import type { Intent, Intents } from '../intents-schema.ts';
import { ACTIONS, answerFor, type Lang } from './answer.ts';
import {
  type Asks,
  asksOf,
  closedDaysNamed,
  contentKeys,
  questionsOf,
  type Sign,
  saidKeys,
  signsOf,
  Vocabulary,
} from './guards.ts';
import {
  type Calibration,
  calibrate,
  EmbeddingIndex,
  type EmbeddingProvider,
  NGRAM_CALIBRATION,
  NgramIndex,
  type Scores,
  type TrainingPhrase,
} from './matcher.ts';
import { detectLanguage } from './normalise.ts';

export type { EmbeddingProvider } from './matcher.ts';

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

interface Prepared {
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
const SMALL_TALK = new Set(['greeting', 'thanks', 'goodbye']);

function prepare(file: Intents): Prepared {
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

/** Engines by the intents file's content hash: a warm Lambda builds each version once. */
const cache = new LRUCache<string, IntentEngine | Promise<AsyncIntentEngine>>({ max: 50 });
const byObject = new WeakMap<Intents, IntentEngine>();

const hashOf = (file: Intents, salt = '') =>
  createHash('sha256').update(salt).update(JSON.stringify(file)).digest('hex');

function remember<T extends IntentEngine | Promise<AsyncIntentEngine>>(key: string, value: T): T {
  cache.set(key, value);
  return value;
}

/** The default engine: the offline character n-gram matcher (no model, no network). */
export function buildIntentEngine(file: Intents): IntentEngine {
  const same = byObject.get(file);
  if (same) return same;
  const key = hashOf(file);
  const hit = cache.get(key) as IntentEngine | undefined;
  if (hit) {
    byObject.set(file, hit);
    return hit;
  }
  const p = prepare(file);
  const index = new NgramIndex(p.phrases, p.intents.length);
  const engine: IntentEngine = {
    decide: (text, brain) => {
      const parts = questionsOf(text);
      const each = parts.length > 1 ? parts.map((q) => index.score(q)) : [];
      return decideFrom(p, index.score(text), NGRAM_CALIBRATION, text, brain, each);
    },
  };
  byObject.set(file, engine);
  return remember(key, engine);
}

/** An engine over a pluggable embedding provider: phrases embedded once per file version and provider. */
export function buildEmbeddingIntentEngine(
  file: Intents,
  provider: EmbeddingProvider,
): Promise<AsyncIntentEngine> {
  const key = hashOf(file, `${provider.id}\n`);
  const hit = cache.get(key) as Promise<AsyncIntentEngine> | undefined;
  if (hit) return hit;
  const p = prepare(file);
  const built = EmbeddingIndex.build(provider, p.phrases, p.intents.length).then(
    (index): AsyncIntentEngine => ({
      decide: async (text, brain) => {
        const parts = questionsOf(text);
        const each = parts.length > 1 ? await Promise.all(parts.map((q) => index.score(q))) : [];
        return decideFrom(p, await index.score(text), provider.calibration, text, brain, each);
      },
    }),
  );
  built.catch(() => cache.delete(key));
  return remember(key, built);
}

/** The best and second-best intent by one score array. */
function top2(scores: ArrayLike<number>) {
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

function decideFrom(
  p: Prepared,
  s: Scores,
  cal: Calibration,
  text: string,
  brain: Brain | undefined,
  parts: Scores[],
): IntentDecision {
  const candidates = candidatesOf(p, s, cal);
  const d = decideOn(p, s, cal, text, brain, parts);
  return { ...d, candidates } as IntentDecision;
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

/** Why a template answer for the chosen intent could be wrong (docs/chatbot.md, "When the intents defer"). */
function guard(
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

/**
 * Vocabularies by intents file and by the brain's names of things: a brain is read afresh for each
 * turn, so it is keyed by content, not identity, and a warm engine builds each one once.
 */
const vocabularies = new WeakMap<Prepared, LRUCache<string, Vocabulary>>();

function vocabularyOf(p: Prepared, brain: Brain | undefined): Vocabulary {
  let byBrain = vocabularies.get(p);
  if (!byBrain) {
    byBrain = new LRUCache({ max: 20 });
    vocabularies.set(p, byBrain);
  }
  const words = brainWords(brain);
  const key = words.join('\n');
  let v = byBrain.get(key);
  if (!v) {
    v = new Vocabulary([...p.phraseTexts, ...words]);
    byBrain.set(key, v);
  }
  return v;
}

type Topic = 'services' | 'stock' | 'doctors';
/** The answers (`ACTIONS` facts) that list each kind of thing of the brain. */
const TOPIC_FACTS: Record<Topic, string[]> = {
  services: ['services'],
  stock: ['stock'],
  doctors: ['doctors', 'doctor_slots', 'fees'],
};
const topicCache = new LRUCache<string, Map<string, Topic>>({ max: 50 });

/** The sound keys of the brain's services, products and doctors, each with its kind. */
function topicsOf(brain: Brain | undefined): Map<string, Topic> {
  if (!brain) return new Map();
  const lists: Record<Topic, string[]> = {
    services: (brain.services ?? []).flatMap((x) => [x.name, ...(x.aliases ?? [])]),
    stock: (brain.stock?.items ?? []).flatMap((i) => [i.name, ...(i.aliases ?? [])]),
    doctors: (brain.doctors ?? []).flatMap((d) => [d.name, d.specialty ?? '']),
  };
  const key = JSON.stringify(lists);
  const hit = topicCache.get(key);
  if (hit) return hit;
  const out = new Map<string, Topic>();
  for (const [topic, names] of Object.entries(lists) as Array<[Topic, string[]]>)
    for (const name of names) for (const k of contentKeys(name)) if (k.length >= 3) out.set(k, topic);
  topicCache.set(key, out);
  return out;
}

/** The brain's names of things: business, places, doctors, services, products, FAQ questions. */
function brainWords(brain: Brain | undefined): string[] {
  if (!brain) return [];
  const l = brain.location;
  return [
    brain.business.name,
    brain.business.industry ?? '',
    l?.address ?? '',
    l?.city ?? '',
    ...(l?.landmarks ?? []),
    ...(brain.doctors ?? []).flatMap((d) => [d.name, d.specialty ?? '']),
    ...(brain.services ?? []).flatMap((s) => [s.name, ...(s.aliases ?? [])]),
    ...(brain.stock?.items ?? []).flatMap((i) => [i.name, ...(i.aliases ?? [])]),
  ];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
