import { describe, expect, it } from 'vitest';
import type { Brain } from '../brain-schema.ts';
import { closedDaysNamed, daysNamed } from './days.ts';
import { asksOf, questionsOf, signsOf } from './guards.ts';
import { contentKeys, Vocabulary } from './vocabulary.ts';

const brain = {
  business: { name: 'Clinic' },
  contact: { hours: { sunday: { closed: true }, monday: { open: '09:00', close: '17:00' } } },
} as Brain;

describe('guards', () => {
  it('finds a negation in English, Malayalam script and Manglish, but not in "phone no"', () => {
    for (const t of [
      "the doctor isn't in today?",
      'not coming',
      'ഡോക്ടർ ഇല്ലേ',
      'kittiyilla',
      'venda',
      'ടോക്കൺ കിട്ടിയില്ല',
    ])
      expect(signsOf(t).has('negation'), t).toBe(true);
    for (const t of ['phone no please', 'is the doctor in today', 'ഡോക്ടർ ഉണ്ടോ'])
      expect(signsOf(t).has('negation'), t).toBe(false);
  });

  it('finds another action, a complaint and a price or place question', () => {
    expect(signsOf('please cancel my token').has('other action')).toBe(true);
    expect(signsOf('ബുക്കിംഗ് റദ്ദാക്കണം').has('other action')).toBe(true);
    expect(signsOf('token maattamo').has('other action')).toBe(true);
    expect(signsOf('very rude staff').has('complaint')).toBe(true);
    expect(signsOf('valare mosham').has('complaint')).toBe(true);
    expect(signsOf('fridge vila ethra').has('other question')).toBe(true);
    expect(signsOf('അഡ്രസ് എന്താണ്').has('other question')).toBe(true);
    // "will" and "vila" share a sound key; the question words are compared as written.
    expect(signsOf('when will the doctor come').has('other question')).toBe(false);
  });

  it('cuts a message into its questions', () => {
    expect(questionsOf('fees ethra? clinic evide aanu?')).toEqual(['fees ethra', 'clinic evide aanu']);
    expect(questionsOf('how much for a haircut and are you open on sunday')).toHaveLength(2);
    expect(questionsOf('patient name and age')).toHaveLength(1);
  });

  it('names the days a text mentions and which of them the brain says are closed', () => {
    expect(daysNamed('book for sunday or monday')).toEqual(['sunday', 'monday']);
    expect(daysNamed('ഞായറാഴ്ച വരാമോ')).toEqual(['sunday']);
    expect(closedDaysNamed('njayarazhcha token venam', brain)).toEqual(['sunday']);
    expect(closedDaysNamed('monday token venam', brain)).toEqual([]);
    expect(closedDaysNamed('sunday', { business: { name: 'x' } } as Brain)).toEqual([]);
  });

  it('knows the words of the intents and the brain, with a typo or a Malayalam suffix', () => {
    const v = new Vocabulary(['what is the consultation fee', 'ക്ലിനിക് എവിടെ', 'Root canal treatment']);
    expect(v.unknownIn('consultaton fee please')).toEqual([]);
    expect(v.unknownIn('ക്ലിനിക്കിലേക്ക് ഇൻഷുറൻസ് ഉണ്ടോ')).toEqual(['insurans']);
    // Fillers, honorifics, SMS-speak and Malayalam verb forms name nothing.
    expect(v.unknownIn('chechi pls clinic eppo thurakkum')).toEqual([]);
    expect(v.unknownIn('ക്ലിനിക് എപ്പോഴാണ് തുറക്കുന്നത് സാർ')).toEqual([]);
    expect(v.unknownIn('consultatoin fee for my mother')).toEqual([]);
    expect(v.unknownIn('how much is an mri scan')).toEqual(['mri', 'skan']);
    expect(contentKeys('what is the fee on sunday')).toEqual(['fi']);
  });

  it('knows a price question in English, Malayalam script and Manglish, whatever the verb', () => {
    for (const t of [
      'ക്ലീനിംഗ് ചെയ്യാൻ എത്ര ആകും',
      'cleaning cheyyan ethra aavum',
      'facial cheyan ethrya',
      'haircut etra aanu',
      'how much to get a facial done',
      'scaling rate?',
      'rct charge',
      'വില എത്രയാ',
      'vila ethra',
      '₹ for a haircut?',
      'ഡോക്ടറെ കാണാൻ എത്ര രൂപയാകും',
      'doctorine kaanan ethra',
    ])
      expect(asksOf(t).price, t).toBe(true);
    // എത്ര counting a time, a distance or people is not a price.
    for (const t of [
      'ക്ലിനിക്കിന്റെ സമയം എത്രയാണ്',
      'ethra manikku thurakkum',
      'ethra aalukal undu',
      'warranty ethra kollam aanu',
      'when will the doctor be available',
      'book an appointment',
    ])
      expect(asksOf(t).price, t).toBe(false);
  });

  it('knows a booking request in the three languages', () => {
    for (const t of [
      'book an appointment',
      'appointment venam',
      'ബുക്ക് ചെയ്യണം',
      'token edukkanam',
      'slot undo',
    ])
      expect(asksOf(t).booking, t).toBe(true);
    expect(asksOf('what are your timings').booking).toBe(false);
  });

  it('tolerates two typos only after the same first two letters', () => {
    const v = new Vocabulary(['what is the timing', 'are you working today']);
    expect(v.unknownIn('timmimg')).toEqual([]);
    expect(v.unknownIn('do you do threading')).toEqual(['triding']);
    expect(v.unknownIn('parking')).toEqual(['parking']);
  });

  it('counts Manglish question-word spellings as filler, not as a topic', () => {
    for (const t of [
      'clinic evde',
      'clinic evida',
      'fees ethrya',
      'fees etra',
      'clinic eppozha',
      'token kittuo',
    ])
      expect(contentKeys(t).length, t).toBe(1);
  });
});
