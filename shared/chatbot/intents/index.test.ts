import { describe, expect, it } from 'vitest';
import { clinicBrain, clinicIntents } from '../../../bench/support/intent-faq.ts';
import { Intents } from '../intents-schema.ts';
import { buildEmbeddingIntentEngine, buildIntentEngine, type EmbeddingProvider } from './index.ts';
import { calibrate, NGRAM_CALIBRATION } from './matcher.ts';

const file = (patch: Record<string, unknown> = {}, policy: Record<string, unknown> = {}) =>
  Intents.parse({
    runtime_policy: { confidence_policy: policy },
    intents: [
      {
        id: 'hours',
        category: 'info',
        action: 'clinic_hours',
        training_phrases: { en: ['opening hours'] },
        ...patch,
      },
      {
        id: 'where',
        category: 'info',
        action: 'clinic_address',
        training_phrases: { en: ['where is the clinic'] },
      },
    ],
  });

describe('buildIntentEngine', () => {
  it('builds once per intents version (same content, same engine)', () => {
    expect(buildIntentEngine(file())).toBe(buildIntentEngine(file()));
    expect(buildIntentEngine(file())).not.toBe(buildIntentEngine(file({ category: 'other' })));
  });

  it('answers an identical normalised phrase as a rule match filled from the brain', () => {
    const d = buildIntentEngine(file()).decide('Opening   HOURS?', clinicBrain());
    expect(d).toMatchObject({ kind: 'answer', intentId: 'hours', match: 'rule', score: 1 });
    if (d.kind === 'answer')
      expect(d.reply).toBe('Our hours: Monday to Friday 08:30-20:00; Saturday 09:00-14:00; Sunday closed.');
  });

  it('defers to the model when the brain lacks the data', () => {
    const d = buildIntentEngine(file()).decide('opening hours', { business: { name: 'X' } });
    expect(d).toMatchObject({ kind: 'model', intentId: 'hours' });
  });

  it('defers with the facts as a hint when skip_llm_simple_template is false', () => {
    const d = buildIntentEngine(file({}, { skip_llm_simple_template: false })).decide(
      'opening hours',
      clinicBrain(),
    );
    expect(d.kind).toBe('model');
    if (d.kind === 'model') expect(d.hint).toContain('08:30-20:00');
  });

  it('ignores disabled intents and needs a margin when two intents share a phrase', () => {
    expect(buildIntentEngine(file({ enabled: false })).decide('opening hours', clinicBrain()).kind).toBe(
      'model',
    );
    const twin = file({ training_phrases: { en: ['where is the clinic'] } });
    expect(buildIntentEngine(twin).decide('where is the clinic', clinicBrain())).toMatchObject({
      kind: 'model',
    });
  });

  it('answers a Malayalam question in Malayalam from the intent responses', () => {
    const d = buildIntentEngine(clinicIntents()).decide('പാർക്കിംഗ് ഉണ്ടോ?', clinicBrain());
    expect(d).toMatchObject({ kind: 'answer', intentId: 'parking' });
    if (d.kind === 'answer') expect(d.reply).toMatch(/^ഉണ്ട്/);
  });

  it('explains every decision: the best candidates with their scores, and the reason for deferring', () => {
    const engine = buildIntentEngine(file());
    const answered = engine.decide('opening hours?', clinicBrain());
    expect(answered).toMatchObject({ kind: 'answer', intentId: 'hours' });
    expect(answered.candidates[0]).toEqual({ id: 'hours', score: 1, match: 'rule' });
    expect(answered.candidates.map((c) => c.id)).toEqual(['hours', 'where']);

    // Half of each intent's words: neither is likely enough.
    const unsure = engine.decide('clinic open hour', clinicBrain());
    expect(unsure).toMatchObject({ kind: 'model', reason: 'low confidence', intentId: 'where' });
    expect(unsure.candidates.map((c) => c.id)).toEqual(['where', 'hours']);
    expect(unsure.candidates[0]?.score).toBeLessThan(0.84);
    expect(unsure.candidates[0]?.score).toBeGreaterThan(unsure.candidates[1]?.score ?? 1);

    const none = engine.decide('xyzzy', clinicBrain());
    expect(none).toEqual({ kind: 'model', reason: 'no match', candidates: none.candidates });
    expect(none.candidates.every((c) => c.score < 0.5)).toBe(true);
    const twin = file({ training_phrases: { en: ['where is the clinic'] } });
    expect(buildIntentEngine(twin).decide('where is the clinic', clinicBrain())).toMatchObject({
      kind: 'model',
      reason: 'close second',
      candidates: [
        { id: 'hours', score: 1, match: 'rule' },
        { id: 'where', score: 1, match: 'rule' },
      ],
    });
    expect(engine.decide('opening hours', { business: { name: 'X' } })).toMatchObject({
      kind: 'model',
      reason: 'no template answer',
    });
    expect(
      buildIntentEngine(file({}, { skip_llm_simple_template: false })).decide('opening hours', clinicBrain()),
    ).toMatchObject({ kind: 'model', reason: 'templates off' });
  });

  it('calibration is monotonic and 0 at no similarity', () => {
    expect(calibrate(NGRAM_CALIBRATION, 0)).toBe(0);
    expect(calibrate(NGRAM_CALIBRATION, 0.9)).toBeGreaterThan(calibrate(NGRAM_CALIBRATION, 0.5));
  });
});

describe('buildEmbeddingIntentEngine', () => {
  it('scores with the provider and its own calibration', async () => {
    // A deterministic provider (bag of words hashed into 64 dimensions) standing in for a remote API.
    const calls: string[][] = [];
    const provider: EmbeddingProvider = {
      id: 'test:bag-of-words',
      calibration: { slope: 10, intercept: -5 },
      embed: async (texts) => {
        calls.push(texts);
        return texts.map((t) => {
          const v = new Array(64).fill(0);
          for (const w of t.split(' ')) v[[...w].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 64, 7)] += 1;
          return v;
        });
      },
    };
    const engine = await buildEmbeddingIntentEngine(file(), provider);
    expect(await buildEmbeddingIntentEngine(file(), provider)).toBe(engine);
    const d = await engine.decide('where is the clinic please', clinicBrain());
    expect(d).toMatchObject({ kind: 'answer', intentId: 'where', match: 'semantic' });
    expect(calls[0]).toEqual(['opening hours', 'where is the clinic']);
  });
});
