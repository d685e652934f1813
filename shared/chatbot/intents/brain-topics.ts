import { LRUCache } from 'lru-cache';
import type { Brain } from '../brain-schema.ts';
import type { Prepared } from './prepared.ts';
import { contentKeys, Vocabulary } from './vocabulary.ts';

/*
 * What the tenant's brain names (services, products, doctors, places), as the guards need it: the
 * vocabulary a message is checked against and the kind of each thing it names. Both are cached by
 * content, since a brain is read afresh for each turn.
 */

/**
 * Vocabularies by intents file and by the brain's names of things: a brain is read afresh for each
 * turn, so it is keyed by content, not identity, and a warm engine builds each one once.
 */
const vocabularies = new WeakMap<Prepared, LRUCache<string, Vocabulary>>();

export function vocabularyOf(p: Prepared, brain: Brain | undefined): Vocabulary {
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

export type Topic = 'services' | 'stock' | 'doctors';
/** The answers (`ACTIONS` facts) that list each kind of thing of the brain. */
export const TOPIC_FACTS: Record<Topic, string[]> = {
  services: ['services'],
  stock: ['stock'],
  doctors: ['doctors', 'doctor_slots', 'fees'],
};
const topicCache = new LRUCache<string, Map<string, Topic>>({ max: 50 });

/** The sound keys of the brain's services, products and doctors, each with its kind. */
export function topicsOf(brain: Brain | undefined): Map<string, Topic> {
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
