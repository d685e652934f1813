import { isDayKey } from './days.ts';
import { normalise } from './normalise.ts';
import { matchForm } from './transliterate.ts';

/**
 * Maps a raw similarity (cosine, 0–1) to a calibrated score: the estimated probability that the best
 * intent is the right one, `1 / (1 + e^-(slope·raw + intercept))` (logistic, Platt scaling). Fitted
 * on the labelled FAQ set by `npx tsx bench/chatbot-decision.ts --fit` (docs/chatbot.md, "Intent
 * engine"), so a threshold of 0.84 means "answer when at least 84 % of such matches were right".
 */
export interface Calibration {
  slope: number;
  intercept: number;
}

export const calibrate = (c: Calibration, raw: number): number =>
  raw <= 0 ? 0 : 1 / (1 + Math.exp(-(c.slope * raw + c.intercept)));

/** The n-gram matcher's calibration (fitted as `Calibration` says; numbers in docs/chatbot.md). */
export const NGRAM_CALIBRATION: Calibration = { slope: 9.13, intercept: -3 };

/** Per intent (by position in the list given to the index): rule-like and raw semantic scores. */
export interface Scores {
  /** 1 for a training phrase with the same normalised text, 0.95 for the same words (by sound key) in any order, else 0. */
  rule: Float64Array;
  /** The best cosine similarity between the message and one of the intent's phrases. */
  raw: Float64Array;
}

/** One training phrase and the position of its intent. */
export interface TrainingPhrase {
  intent: number;
  text: string;
}

/**
 * The features of a text in its match form (`matchForm`: Malayalam script romanised, spellings
 * reduced to a sound key): word unigrams and character 2–4-grams inside each word.
 */
function features(form: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (f: string) => out.set(f, (out.get(f) ?? 0) + 1);
  for (const word of form.split(' ')) {
    // A day says when, not what: "book for Sunday" is not "open on Sunday".
    if (!word || isDayKey(word)) continue;
    add(`w:${word}`);
    const w = `^${word}$`;
    for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= w.length; i++) add(w.slice(i, i + n));
  }
  return out;
}

/**
 * A query feature found in more than max(1,000, 10 % of all) training phrases is not summed (its idf
 * is at most ln 10 + 1 ≈ 3.3 against ≈ 10 for a rare one): this bounds the work per message on large
 * files. Below 10,000 phrases only features in over 1,000 phrases are skipped, so small files score
 * exactly.
 */
const COMMON_DF_MIN = 1_000;
const COMMON_DF_SHARE = 0.1;

const sortedWords = (norm: string) => norm.split(' ').sort().join(' ');

/**
 * TF-IDF over character n-grams with cosine similarity, against each training phrase; an intent's
 * score is its best phrase's. Built once (an inverted index of weighted features); a query touches
 * only the postings of its own features.
 */
export class NgramIndex {
  private readonly featureIds = new Map<string, number>();
  private readonly idf: number[] = [];
  private readonly postings: Array<{ phrase: Int32Array; weight: Float32Array }> = [];
  private readonly phraseIntent: Int32Array;
  private readonly exact = new Map<string, number[]>();
  private readonly reordered = new Map<string, number[]>();
  private readonly unseenIdf: number;
  private readonly acc: Float64Array;
  /** Features in more phrases than this are skipped when summing (`COMMON_DF`). */
  private readonly commonDf: number;

  constructor(
    phrases: TrainingPhrase[],
    readonly intentCount: number,
  ) {
    const n = phrases.length;
    this.phraseIntent = Int32Array.from(phrases, (p) => p.intent);
    this.acc = new Float64Array(n);
    this.commonDf = Math.max(COMMON_DF_MIN, n * COMMON_DF_SHARE);
    const feats = phrases.map((p) => {
      const norm = normalise(p.text);
      const form = matchForm(norm);
      push(this.exact, norm, p.intent);
      push(this.reordered, sortedWords(form), p.intent);
      return features(form);
    });
    const df: number[] = [];
    for (const f of feats) {
      for (const key of f.keys()) {
        let id = this.featureIds.get(key);
        if (id === undefined) {
          id = this.featureIds.size;
          this.featureIds.set(key, id);
          df.push(0);
        }
        df[id] = (df[id] ?? 0) + 1;
      }
    }
    for (const d of df) this.idf.push(Math.log((n + 1) / (d + 1)) + 1);
    this.unseenIdf = Math.log(n + 1) + 1;
    const lists: Array<{ phrase: number[]; weight: number[] }> = df.map(() => ({ phrase: [], weight: [] }));
    feats.forEach((f, p) => {
      const entries = [...f].map(([key, tf]) => {
        const id = this.featureIds.get(key) as number;
        return [id, (1 + Math.log(tf)) * (this.idf[id] as number)] as const;
      });
      const norm = Math.hypot(...entries.map(([, w]) => w)) || 1;
      for (const [id, w] of entries) {
        const list = lists[id] as { phrase: number[]; weight: number[] };
        list.phrase.push(p);
        list.weight.push(w / norm);
      }
    });
    for (const l of lists)
      this.postings.push({ phrase: Int32Array.from(l.phrase), weight: Float32Array.from(l.weight) });
  }

  /** Scores of every intent for one message. */
  score(text: string): Scores {
    const norm = normalise(text);
    const form = matchForm(norm);
    const rule = new Float64Array(this.intentCount);
    const raw = new Float64Array(this.intentCount);
    for (const i of this.reordered.get(sortedWords(form)) ?? []) rule[i] = 0.95;
    for (const i of this.exact.get(norm) ?? []) rule[i] = 1;
    if (!norm) return { rule, raw };

    const q: Array<[number, number]> = [];
    let sq = 0;
    for (const [key, tf] of features(form)) {
      const id = this.featureIds.get(key);
      const w = (1 + Math.log(tf)) * (id === undefined ? this.unseenIdf : (this.idf[id] as number));
      sq += w * w;
      if (id !== undefined) q.push([id, w]);
    }
    const qNorm = Math.sqrt(sq) || 1;
    const acc = this.acc;
    const touched: number[] = [];
    for (const [id, w] of q) {
      const { phrase, weight } = this.postings[id] as { phrase: Int32Array; weight: Float32Array };
      // A feature in very many phrases says little and costs most: counted in the norm, not summed.
      if (phrase.length > this.commonDf) continue;
      const qw = w / qNorm;
      for (let k = 0; k < phrase.length; k++) {
        const p = phrase[k] as number;
        if (acc[p] === 0) touched.push(p);
        acc[p] = (acc[p] as number) + qw * (weight[k] as number);
      }
    }
    for (const p of touched) {
      const i = this.phraseIntent[p] as number;
      const s = acc[p] as number;
      if (s > (raw[i] as number)) raw[i] = Math.min(1, s);
      acc[p] = 0;
    }
    return { rule, raw };
  }
}

function push(m: Map<string, number[]>, key: string, v: number) {
  const list = m.get(key);
  if (!list) m.set(key, [v]);
  else if (!list.includes(v)) list.push(v);
}

/**
 * A pluggable sentence-embedding provider (for example Amazon Bedrock Titan or Cohere multilingual
 * embeddings), with the calibration of its own cosine similarities. Nothing is downloaded at run time:
 * a provider is a remote API the caller configures; the default engine uses `NgramIndex` instead.
 */
export interface EmbeddingProvider {
  /** A stable name, part of the cache key of an index built with it (e.g. `bedrock:titan-embed-v2`). */
  readonly id: string;
  embed(texts: string[]): Promise<number[][]>;
  readonly calibration: Calibration;
}

/** Training phrases embedded by a provider; scores a message by cosine against each phrase. */
export class EmbeddingIndex {
  private constructor(
    private readonly provider: EmbeddingProvider,
    private readonly phraseIntent: number[],
    private readonly vectors: Float64Array[],
    private readonly exact: Map<string, number[]>,
    readonly intentCount: number,
  ) {}

  static async build(provider: EmbeddingProvider, phrases: TrainingPhrase[], intentCount: number) {
    const vectors = (await provider.embed(phrases.map((p) => normalise(p.text)))).map(unit);
    const exact = new Map<string, number[]>();
    for (const p of phrases) push(exact, normalise(p.text), p.intent);
    return new EmbeddingIndex(
      provider,
      phrases.map((p) => p.intent),
      vectors,
      exact,
      intentCount,
    );
  }

  async score(text: string): Promise<Scores> {
    const norm = normalise(text);
    const rule = new Float64Array(this.intentCount);
    const raw = new Float64Array(this.intentCount);
    for (const i of this.exact.get(norm) ?? []) rule[i] = 1;
    if (!norm) return { rule, raw };
    const [v] = await this.provider.embed([norm]);
    const q = unit(v ?? []);
    this.vectors.forEach((p, k) => {
      let dot = 0;
      for (let d = 0; d < p.length; d++) dot += (p[d] as number) * (q[d] ?? 0);
      const i = this.phraseIntent[k] as number;
      if (dot > (raw[i] as number)) raw[i] = Math.min(1, dot);
    });
    return { rule, raw };
  }
}

function unit(v: number[]): Float64Array {
  const n = Math.hypot(...v) || 1;
  return Float64Array.from(v, (x) => x / n);
}
