import { describe, expect, it } from 'vitest';
import { ACTIONS } from '#shared/chatbot/intents/answer';
import { asksOf } from '#shared/chatbot/intents/guards';
import { blindSet, intentSet, runSet, templateEngine } from '../../../../bench/support/intent-set.ts';
import { PROFILE_TEMPLATES } from './index.ts';

/**
 * The shipped templates against the labelled set (bench/data/intent-set.json): on the held-out
 * turns, never used to fit the calibration, each language gets ≥ 40 % of its FAQ turns answered with
 * no model call and no wrong answer; every must-model turn goes to the model.
 */
describe('the shipped templates on the held-out intent set', () => {
  const held = runSet(intentSet().filter((i) => i.split === 'heldout'));

  it.each(['en', 'ml', 'manglish'] as const)('%s: ≥ 40 % of FAQ turns answered, none wrongly', (lang) => {
    const mine = held.filter((o) => o.item.lang === lang);
    const faq = mine.filter((o) => o.item.intent !== null);
    expect(faq.length).toBeGreaterThanOrEqual(40);
    expect(mine.filter((o) => o.wrong).map((o) => o.item.q)).toEqual([]);
    expect(faq.filter((o) => o.answered).length / faq.length).toBeGreaterThanOrEqual(0.4);
    expect(mine.filter((o) => o.item.intent === null && o.answered)).toEqual([]);
  });

  it('covers every template in every language, with must-model turns of each kind', () => {
    for (const t of ['clinic', 'salon', 'appliances', 'ecommerce'])
      for (const lang of ['en', 'ml', 'manglish'])
        expect(
          held.some((o) => o.item.template === t && o.item.lang === lang),
          `${t} ${lang}`,
        ).toBe(true);
    const why = new Set(held.map((o) => o.item.why).filter(Boolean));
    for (const w of ['negation', 'other action', 'complaint', 'several questions', 'closed day'])
      expect(why.has(w), w).toBe(true);
  });
});

/**
 * The second blind set (bench/data/intent-blind2.json): written from the templates' brains and the
 * docs by someone who never saw the engine, its tests or the other sets, and measured once before
 * this test existed (docs/benchmarks.md, "Chatbot"). From now on it guards the goal: a change that
 * costs a language its 40 % or gives one wrong answer fails here.
 */
describe('the shipped templates on the second blind set', () => {
  const blind = runSet(blindSet('intent-blind2'));

  it.each(['en', 'ml', 'manglish'] as const)('%s: ≥ 40 % of FAQ turns answered, none wrongly', (lang) => {
    const mine = blind.filter((o) => o.item.lang === lang);
    const faq = mine.filter((o) => o.item.intent !== null);
    expect(faq.length).toBeGreaterThanOrEqual(30);
    expect(mine.filter((o) => o.wrong).map((o) => o.item.q)).toEqual([]);
    expect(faq.filter((o) => o.answered).length / faq.length).toBeGreaterThanOrEqual(0.4);
    expect(mine.filter((o) => o.item.intent === null && o.answered)).toEqual([]);
  });
});

describe('each defer reason, on a confident intent of a shipped template', () => {
  const clinic = templateEngine('clinic');
  const appliances = templateEngine('appliances');
  const reason = (e: ReturnType<typeof templateEngine>, q: string) => {
    const d = e.engine.decide(q, e.brain);
    return d.kind === 'model' ? d.reason : `answered ${d.intentId}`;
  };

  it.each([
    ['negation', "I don't want to book an appointment"],
    ['negation', 'appointment venda'],
    ['other action', 'I want to cancel my appointment'],
    ['other action', 'appointment cancel cheyyanam'],
    ['complaint', 'rude staff, what are your timings'],
    ['several questions', 'what is the consultation fee? and where is the clinic located'],
    ['closed day', 'book an appointment for sunday'],
    ['closed day', 'ഞായറാഴ്ച അപ്പോയിന്റ്മെന്റ് വേണം'],
    ['unknown words', 'what is the consultation fee for an mri scan'],
    ['close second', 'doctor'],
  ])('%s: %s', (why, q) => {
    expect(reason(clinic, q)).toBe(why);
  });

  it('other question: a price asked of an intent that never gives one', () => {
    expect(reason(appliances, 'washing machine vila ethra')).toBe('other question');
  });

  it("other question: a thing of the brain (a service) that the intent's answer does not list", () => {
    // "root canal" is one of the clinic's services; the consultation fees are the doctors'.
    expect(reason(clinic, 'how much for root canal')).toBe('other question');
  });

  it.each([
    ['clinic', 'ഡെന്റൽ ക്ലീനിംഗ് ചെയ്യാൻ എത്ര ആകും'],
    ['clinic', 'appointment edukkan ethra aavum'],
    ['clinic', 'how much to book an appointment'],
    ['salon', 'facial cheyyan ethrya'],
    ['salon', 'haircut cheyyan etra aakum'],
    ['clinic', 'clinic timing ethra rate'],
  ] as const)('a price asked is never answered by an intent whose answer has no price (%s: %s)', (t, q) => {
    const e = templateEngine(t);
    const d = e.engine.decide(q, e.brain);
    if (d.kind === 'answer') expect(['consultation_fee', 'haircut_price']).toContain(d.intentId);
  });

  it('a booking request is never answered with a price list', () => {
    for (const [t, q] of [
      ['salon', 'haircut book cheyyanam'],
      ['clinic', 'I want to book a dental cleaning'],
      ['salon', 'facial nu slot undo'],
    ] as const) {
      const e = templateEngine(t);
      const d = e.engine.decide(q, e.brain);
      if (d.kind === 'answer') expect(asksOf(d.reply).price, `${q} → ${d.intentId}`).toBe(false);
    }
  });

  it("the templates' booking intents are trained on no price words", () => {
    for (const [name, t] of Object.entries(PROFILE_TEMPLATES))
      for (const intent of t.intents.intents)
        if (ACTIONS[intent.action]?.fact === 'booking')
          for (const list of Object.values(intent.training_phrases))
            for (const q of list) expect(asksOf(q).price, `${name} ${intent.id}: ${q}`).toBe(false);
  });

  it("close second: a word only another intent's phrases use", () => {
    // "washing machine" is the repair intent's; "warranty" only the warranty intent's.
    expect(reason(appliances, 'warranty for washing machine')).toBe('close second');
  });

  it('an intent trained on a sign keeps answering it (a repair request says "not cooling")', () => {
    expect(reason(appliances, 'my fridge is not cooling')).toBe('answered service_request');
  });

  it("answers from the brain: hours and fees are the brain's facts, in the question's script", () => {
    const en = clinic.engine.decide('what r ur timings', clinic.brain);
    expect(en).toMatchObject({ kind: 'answer', intentId: 'clinic_hours' });
    if (en.kind === 'answer') expect(en.reply).toContain('08:30-20:00');
    const ml = clinic.engine.decide('ക്ലിനിക്കിന്റെ സമയം എത്രയാണ്', clinic.brain);
    expect(ml).toMatchObject({ kind: 'answer', intentId: 'clinic_hours' });
    if (ml.kind === 'answer') expect(ml.reply).toMatch(/തിങ്കൾ/);
    const fee = clinic.engine.decide('fees ethra', clinic.brain);
    if (fee.kind !== 'answer') throw new Error(JSON.stringify(fee));
    expect(fee.reply).toContain('₹400');
  });
});
