import { Intents } from '#shared/chatbot/intents-schema';
import { NgramIndex } from '../shared/chatbot/intents/matcher.ts';
import { PROFILE_TEMPLATES } from '../functions/api/chatbot/profiles/index.ts';
import { intentSet } from './support/intent-set.ts';
const idx = new Map<string, { index: NgramIndex; ids: string[] }>();
for (const [n, t] of Object.entries(PROFILE_TEMPLATES)) {
  const f = Intents.parse(t.intents);
  const ints = f.intents.filter((i) => i.enabled);
  const phrases = ints.flatMap((it, i) => Object.values(it.training_phrases).flat().map((text) => ({ intent: i, text })));
  idx.set(n, { index: new NgramIndex(phrases, ints.length), ids: ints.map((i) => i.id) });
}
const split = process.argv[2] ?? 'tune';
const xs: Array<[number, number, string]> = [];
for (const it of intentSet()) {
  if (it.split !== split) continue;
  if (it.intent === null && it.why !== 'missing fact') continue;
  const { index, ids } = idx.get(it.template)!;
  const { raw } = index.score(it.q);
  let b = 0; raw.forEach((s, i) => { if (s > raw[b]!) b = i; });
  xs.push([raw[b]!, ids[b] === it.intent ? 1 : 0, it.q]);
}
xs.sort((a, b) => a[0] - b[0]);
for (const x of xs) console.log(x[0].toFixed(3), x[1], x[2]);
let a = 0, c = 0; const L = 0.001;
for (let k = 0; k < 200000; k++) { let ga = L * a, gb = 0; for (const [x, y] of xs) { const p = 1 / (1 + Math.exp(-(a * x + c))); ga += (p - y) * x / xs.length; gb += (p - y) / xs.length; } a -= 2 * ga; c -= 2 * gb; }
console.log('fit', a.toFixed(2), c.toFixed(2), 'raw at .84', ((Math.log(.84/.16) - c) / a).toFixed(3));
