import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Intents } from '../intents-schema.ts';
import { decideFrom } from './decide-scores.ts';
import type { AsyncIntentEngine, IntentEngine } from './decision.ts';
import { questionsOf } from './guards.ts';
import { EmbeddingIndex, type EmbeddingProvider, NGRAM_CALIBRATION, NgramIndex } from './matcher.ts';
import { prepare } from './prepared.ts';

/*
 * The intent engine's door: builds an engine per intents file version (n-gram or embedding) and
 * keeps it warm. Deciding lives in decide-scores.ts, its guards in template-guard.ts.
 */

export type {
  AsyncIntentEngine,
  DeferReason,
  IntentCandidate,
  IntentDecision,
  IntentEngine,
} from './decision.ts';
export type { EmbeddingProvider } from './matcher.ts';

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
