import { describe, expect, it } from 'vitest';
import { clinicBrain, clinicIntents, faqSet, runFaq } from '../../../bench/support/intent-faq.ts';
import { buildIntentEngine } from './index.ts';

describe('the labelled FAQ set (bench/data/faq.json)', () => {
  const items = faqSet();
  const result = runFaq(buildIntentEngine(clinicIntents()), clinicBrain(), items);

  it('has at least 200 questions in English and Malayalam, with variants and off-topic ones', () => {
    expect(items.length).toBeGreaterThanOrEqual(200);
    expect(items.some((i) => /[\u0d00-\u0d7f]/.test(i.q))).toBe(true);
    expect(items.some((i) => i.q.includes('\u200d'))).toBe(true);
    expect(items.filter((i) => i.intent === null).length).toBeGreaterThanOrEqual(30);
  });

  it('answers none wrongly and at least 40 % with no model call', () => {
    expect(result.wrong).toEqual([]);
    expect(result.answered / result.total).toBeGreaterThanOrEqual(0.4);
  });

  it('answers English and Malayalam questions, paraphrases and chillu/ZWJ variants without the model', () => {
    const engine = buildIntentEngine(clinicIntents());
    const brain = clinicBrain();
    const en = engine.decide('When is the clinic open?', brain);
    expect(en).toMatchObject({ kind: 'answer', intentId: 'clinic_hours' });
    if (en.kind === 'answer') expect(en.reply).toContain('08:30-20:00');
    const atomic = engine.decide('ക്ലിനിക് എപ്പോ\u0d7e തുറക്കും?', brain);
    const zwj = engine.decide('ക്ലിനിക് എപ്പോ\u0d33\u0d4d\u200d തുറക്കും?', brain);
    expect(atomic).toMatchObject({ kind: 'answer', intentId: 'clinic_hours', match: 'rule' });
    expect(zwj).toEqual(atomic);
    if (atomic.kind === 'answer') expect(atomic.reply).toMatch(/[\u0d00-\u0d7f]/);
    expect(engine.decide('Do you handle emergencies?', brain)).toMatchObject({
      kind: 'answer',
      intentId: 'emergency',
      match: 'rule',
    });
  });

  it('sends an off-topic question to the model', () => {
    const d = buildIntentEngine(clinicIntents()).decide('who won the cricket match yesterday', clinicBrain());
    expect(d.kind).toBe('model');
  });
});
