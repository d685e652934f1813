import { describe, expect, it } from 'vitest';
import { clinicBrain } from '../../../bench/support/intent-faq.ts';
import type { Brain } from '../brain-schema.ts';
import { Intent } from '../intents-schema.ts';
import { answerFor, hasTemplate } from './answer.ts';

const intent = (action: string, responses?: Record<string, string>) =>
  Intent.parse({ id: action, category: 'c', action, training_phrases: { en: ['x'] }, responses });

describe('answerFor', () => {
  const brain = clinicBrain();

  it('fills an action template from the brain in English and Malayalam', () => {
    expect(answerFor(intent('answer_hours'), 'ml', brain, 'സമയം')).toBe(
      'പ്രവർത്തന സമയം: തിങ്കൾ മുതൽ വെള്ളി 08:30-20:00; ശനി 09:00-14:00; ഞായർ അവധി.',
    );
    expect(answerFor(intent('consultation_fees'), 'en', brain, 'fees')).toBe(
      'Consultation fees: General medicine ₹400, Paediatrics ₹500, Dentistry ₹300.',
    );
  });

  it('lists only the doctors the question names, else all', () => {
    const one = answerFor(intent('doctor_availability'), 'en', brain, 'dentist timings?') ?? '';
    expect(one).toContain('Dr. Fathima Rasheed: Tuesday 10:00-13:00, 15:00-18:00');
    expect(one).not.toContain('Anitha');
    expect(answerFor(intent('doctor_availability'), 'en', brain, 'when are doctors in')).toContain('Anitha');
  });

  it('prefers the intent responses and fills their placeholders', () => {
    expect(answerFor(intent('x', { en: 'Hi from {{name}}: {{payment}}' }), 'en', brain, 'q')).toBe(
      'Hi from Sree Narayana Family Clinic: Cash, UPI, Debit/credit card',
    );
    expect(answerFor(intent('x', { en: 'Warranty {{warranty}}' }), 'en', brain, 'q')).toBeUndefined();
  });

  it('defers when the brain lacks the data or the language', () => {
    const bare: Brain = { business: { name: 'B' } };
    expect(answerFor(intent('clinic_hours'), 'en', bare, 'hours')).toBeUndefined();
    expect(answerFor(intent('clinic_hours'), 'en', undefined, 'hours')).toBeUndefined();
    // Booking instructions are English free text: no Malayalam template answer from them.
    expect(answerFor(intent('booking_howto'), 'ml', brain, 'ബുക്ക്')).toBeUndefined();
    expect(answerFor(intent('booking_howto'), 'en', brain, 'book')).toMatch(
      /^To book: Send the patient name/,
    );
    // An unknown action answers only through responses.
    expect(answerFor(intent('answer_emergency'), 'en', brain, 'q')).toBeUndefined();
    expect(hasTemplate(intent('answer_emergency'))).toBe(false);
  });

  it('answers a stock question only when it names an item', () => {
    const shop: Brain = {
      business: { name: 'S', currency: 'INR' },
      stock: {
        items: [
          { sku: 'MX-500', name: 'Mixer grinder', price: 3200, inStock: true },
          { sku: 'KT-1', name: 'Electric kettle', inStock: false },
        ],
      },
    };
    expect(answerFor(intent('stock_check'), 'en', shop, 'is the mixer grinder available?')).toBe(
      'Mixer grinder, in stock, ₹3200',
    );
    expect(answerFor(intent('stock_check'), 'en', shop, 'what do you have')).toBeUndefined();
  });
});
