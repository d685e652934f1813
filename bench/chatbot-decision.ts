import { cpus, loadavg } from 'node:os';
import { Intents } from '#shared/chatbot/intents-schema';
import type { ChatbotRule } from '#shared/chatbot/rules';
import { PROFILE_TEMPLATES } from '../functions/api/chatbot/profiles/index.ts';
import { buildIntentEngine } from '../shared/chatbot/intents/index.ts';
import { type Calibration, NGRAM_CALIBRATION, NgramIndex } from '../shared/chatbot/intents/matcher.ts';
import { matchRule } from '../shared/chatbot/rule-match/match.ts';
import { clinicBrain, clinicIntents, faqSet, runFaq } from './support/intent-faq.ts';
import { intentSet, type SetItem, templateEngine } from './support/intent-set.ts';
import { pct } from './support/stats.ts';

/**
 * The chatbot's decision step without I/O: static rules (`matchRule`) then the intent engine
 * (`engine.decide`), per message, in one process.
 * (a) Latency with 1,000 rules (exact/contains/regex, under 3 session keys and `*`) and 10,000
 *     synthetic training phrases (200 intents × 50, en and ml words, seeded), against a floor
 *     measured in the same run: JSON.parse of the queue message that carries the text.
 * (b) The labelled FAQ set (bench/data/faq.json) against bench/data/clinic-intents.json and the
 *     clinic brain: the share answered with no model call and the share answered wrongly.
 * (c) The intent set (bench/data/intent-set.json) against the four shipped templates, per language
 *     (en, ml, Manglish), split (tune / held-out) and `semantic_match_no_ai` threshold: FAQ turns
 *     answered with no model call, wrong answers (a must-model turn answered counts as wrong).
 * `--fit` prints the logistic calibration of the n-gram matcher's raw cosine fitted on the intent
 * set's `tune` split only (the numbers of NGRAM_CALIBRATION in shared/chatbot/intents/matcher.ts).
 *
 * Run: npx tsx bench/chatbot-decision.ts [runs=20000] [--fit]
 */
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 20_000);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const EN =
  'what when where how much is the a doctor clinic open close fee price book appointment token today tomorrow sunday monday report test blood child dental cleaning root canal parking address phone number card upi insurance vaccine sample home visit time slot available evening morning'.split(
    ' ',
  );
const ML =
  'ഡോക്ടർ ക്ലിനിക് എപ്പോൾ എവിടെ എത്ര ഫീസ് സമയം ഇന്ന് നാളെ ഉണ്ടോ തുറക്കും ബുക്ക് ടോക്കൺ റിപ്പോർട്ട് കുട്ടികളുടെ പാർക്കിംഗ് വിലാസം നമ്പർ രൂപ വാക്സിൻ'.split(
    ' ',
  );

function syntheticIntents(intents: number, perIntent: number): Intents {
  const r = rng(42);
  const pick = (words: string[]) => words[Math.floor(r() * words.length)] as string;
  const phrase = (words: string[]) =>
    Array.from({ length: 3 + Math.floor(r() * 5) }, () => pick(words)).join(' ');
  return Intents.parse({
    intents: Array.from({ length: intents }, (_, i) => ({
      id: `intent_${i}`,
      category: 'synthetic',
      action: 'answer_synthetic',
      training_phrases: {
        en: Array.from({ length: perIntent / 2 }, () => `${phrase(EN)} ${i}`),
        ml: Array.from({ length: perIntent / 2 }, () => `${phrase(ML)} ${i}`),
      },
      responses: { en: `answer ${i}`, ml: `ഉത്തരം ${i}` },
    })),
  });
}

function syntheticRules(n: number): { rules: ChatbotRule[]; keys: string[] } {
  const r = rng(7);
  const keys = ['919812345678', 'session-1', 'clinic', 'global'];
  const rules = Array.from({ length: n }, (_, i): ChatbotRule => {
    const type = i % 10 === 0 ? 'regex' : i % 2 ? 'contains' : 'exact';
    const word = `${EN[Math.floor(r() * EN.length)]}${i}`;
    return {
      id: `rule_${i}`,
      mobid: i % 4 === 3 ? '*' : (keys[i % 3] as string),
      triggerType: type,
      keyword: type === 'regex' ? `^order\\s+#?${i}\\b` : `keyword ${word}`,
      replyType: 'text',
      response: `reply ${i}`,
      createdAt: new Date(1_700_000_000_000 + i).toISOString(),
    };
  });
  return { rules, keys };
}

function latency() {
  const { rules, keys } = syntheticRules(1_000);
  const file = syntheticIntents(200, 50);
  const phrases = file.intents.reduce((n, i) => n + Object.values(i.training_phrases).flat().length, 0);
  const brain = clinicBrain();
  const tBuild = performance.now();
  const engine = buildIntentEngine(file);
  const buildMs = performance.now() - tBuild;
  const faq = faqSet().map((f) => f.q);
  const messages = Array.from({ length: RUNS }, (_, i) =>
    JSON.stringify({ kind: 'chatbot.turn', sessionId: 'session-1', text: faq[i % faq.length] }),
  );
  const ruleTimes: number[] = [];
  const decide = (raw: string) => {
    const { text } = JSON.parse(raw) as { text: string };
    const t = performance.now();
    const rule = matchRule(rules, text, keys);
    ruleTimes.push(performance.now() - t);
    return rule ?? engine.decide(text, brain);
  };
  for (let i = 0; i < 2_000; i++) decide(messages[i % messages.length] as string); // warm-up
  ruleTimes.length = 0;
  const times: number[] = [];
  const floor: number[] = [];
  let sink = 0;
  for (const m of messages) {
    let t = performance.now();
    sink += (JSON.parse(m) as { text: string }).text.length;
    floor.push(performance.now() - t);
    t = performance.now();
    const d = decide(m);
    times.push(performance.now() - t);
    if ('kind' in d && d.kind === 'answer') sink++;
  }
  times.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  ruleTimes.sort((a, b) => a - b);
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `(a) decision latency: rules + intents, ${rules.length} rules, ${phrases} training phrases in ${file.intents.length} intents (index built in ${buildMs.toFixed(0)} ms), ${RUNS} runs`,
  );
  console.log(
    `    decide   p50 ${us(pct(times, 50))}  p99 ${us(pct(times, 99))}  max ${us(times.at(-1) ?? 0)}`,
  );
  console.log(`    of which rules  p50 ${us(pct(ruleTimes, 50))}  p99 ${us(pct(ruleTimes, 99))}`);
  console.log(
    `    runs over 1 ms: ${times.filter((t) => t > 1).length}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );
  console.log(`    floor (JSON.parse of the message)  p50 ${us(pct(floor, 50))}  p99 ${us(pct(floor, 99))}`);
  console.log(`    target p99 ≤ 25 ms: ${pct(times, 99) <= 25 ? 'met' : 'NOT met'} (checksum ${sink})`);
}

function faq() {
  const items = faqSet();
  const r = runFaq(buildIntentEngine(clinicIntents()), clinicBrain(), items);
  const share = (n: number) => `${((100 * n) / r.total).toFixed(1)} %`;
  const offTopic = items.filter((i) => i.intent === null).length;
  console.log(
    `(b) FAQ set: ${r.total} questions (${offTopic} off-topic, ${items.filter((i) => i.variant).length} chillu/ZWJ/ZWNJ variants)`,
  );
  console.log(`    answered with no model call: ${r.answered} (${share(r.answered)}; target ≥ 40 %)`);
  console.log(`    answered wrongly: ${r.wrong.length} (${share(r.wrong.length)}; target 0)`);
  for (const w of r.wrong)
    console.log(`      WRONG ${JSON.stringify(w.q)} labelled ${w.intent} answered as ${w.got} (${w.score})`);
  console.log(`    labelled questions that went to the model: ${r.deferred.length}`);
  for (const d of r.deferred)
    console.log(`      deferred ${JSON.stringify(d.q)} (${d.intent}) → ${JSON.stringify(d.decision)}`);
}

/** Each template's engine with a threshold of `semantic_match_no_ai` set (the shipped ones use 0.84). */
function engineAt(name: SetItem['template'], threshold: number) {
  const t = PROFILE_TEMPLATES[name];
  const file = Intents.parse({
    ...t.intents,
    runtime_policy: {
      confidence_policy: { ...t.intents.runtime_policy?.confidence_policy, semantic_match_no_ai: threshold },
    },
  });
  return { engine: buildIntentEngine(file), brain: templateEngine(name).brain };
}

function intentSetReport() {
  const items = intentSet();
  console.log(
    `(c) intent set: ${items.length} turns on the 4 shipped templates; FAQ answered / wrong, per language`,
  );
  for (const split of ['tune', 'heldout'] as const) {
    for (const threshold of [0.6, 0.7, 0.84, 0.9]) {
      const cells = (['en', 'ml', 'manglish'] as const).map((lang) => {
        const mine = items.filter((i) => i.split === split && i.lang === lang);
        let answered = 0;
        let wrong = 0;
        for (const item of mine) {
          const { engine, brain } = engineAt(item.template, threshold);
          const d = engine.decide(item.q, brain);
          if (d.kind !== 'answer') continue;
          if (item.intent !== null) answered++;
          if (d.intentId !== item.intent) wrong++;
        }
        const faq = mine.filter((i) => i.intent !== null).length;
        return `${lang} ${answered}/${faq} (${((100 * answered) / faq).toFixed(0)} %) wrong ${wrong}`;
      });
      console.log(`    ${split.padEnd(7)} at ${threshold.toFixed(2)}: ${cells.join(' · ')}`);
    }
  }
}

/** L2-regularised logistic regression of "top intent is right" on the top raw cosine, on the tune split. */
function fitCalibration() {
  const indexes = new Map<string, { index: NgramIndex; ids: string[] }>();
  for (const [name, t] of Object.entries(PROFILE_TEMPLATES)) {
    const intents = Intents.parse(t.intents).intents.filter((i) => i.enabled);
    const phrases = intents.flatMap((it, i) =>
      Object.values(it.training_phrases)
        .flat()
        .map((text) => ({ intent: i, text })),
    );
    indexes.set(name, { index: new NgramIndex(phrases, intents.length), ids: intents.map((i) => i.id) });
  }
  // FAQ turns (right when the top intent is the label) and off-topic turns (never right).
  const tune = intentSet().filter(
    (i) => i.split === 'tune' && (i.intent !== null || i.why === 'missing fact'),
  );
  const xs: Array<[number, number]> = tune.map((item) => {
    const { index, ids } = indexes.get(item.template) as { index: NgramIndex; ids: string[] };
    const { raw } = index.score(item.q);
    let best = 0;
    raw.forEach((s, i) => {
      if (s > (raw[best] as number)) best = i;
    });
    return [raw[best] as number, ids[best] === item.intent ? 1 : 0];
  });
  const LAMBDA = 0.001;
  let a = 0;
  let b = 0;
  for (let it = 0; it < 200_000; it++) {
    let ga = LAMBDA * a;
    let gb = 0;
    for (const [x, y] of xs) {
      const p = 1 / (1 + Math.exp(-(a * x + b)));
      ga += ((p - y) * x) / xs.length;
      gb += (p - y) / xs.length;
    }
    a -= 2 * ga;
    b -= 2 * gb;
  }
  const c: Calibration = { slope: +a.toFixed(2), intercept: +b.toFixed(2) };
  const at = (p: number) => ((Math.log(p / (1 - p)) - c.intercept) / c.slope).toFixed(3);
  console.log(
    `fit on ${xs.length} tune turns (${xs.filter(([, y]) => y).length} right at top-1), λ = ${LAMBDA}: ${JSON.stringify(c)}`,
  );
  console.log(
    `  in use: ${JSON.stringify(NGRAM_CALIBRATION)}; raw cosine for calibrated 0.84: ${at(0.84)}, for 0.90: ${at(0.9)}, for 0.5: ${at(0.5)}`,
  );
}

if (args.includes('--fit')) fitCalibration();
else {
  latency();
  faq();
  intentSetReport();
}
console.log(`reproduce: npx tsx bench/chatbot-decision.ts ${args.join(' ')}`.trim());
