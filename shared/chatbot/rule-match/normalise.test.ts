import { describe, expect, it } from 'vitest';
import { normaliseForMatch, trimPunctuation } from './normalise.ts';

describe('normaliseForMatch', () => {
  it('folds case, accents, compatibility forms and whitespace', () => {
    expect(normaliseForMatch('  Café   CRÈME\tbrûlée ')).toBe('cafe creme brulee');
    expect(normaliseForMatch('ﬁle ＡＢＣ')).toBe('file abc');
    expect(normaliseForMatch('Ñandú')).toBe('nandu');
  });

  it('keeps Malayalam vowel signs and writes chillu letters and ZWJ spellings alike', () => {
    const atomic = 'അവൻ'; // chillu NN (U+0D7B)
    const zwj = 'അവന്\u200d'; // NA + virama + ZWJ
    expect(normaliseForMatch(atomic)).toBe(normaliseForMatch(zwj));
    expect(normaliseForMatch('കാട്')).not.toBe(normaliseForMatch('കട്'));
  });

  it('trims punctuation and symbols at the ends only', () => {
    expect(trimPunctuation('¿hello, world?!')).toBe('hello, world');
    expect(trimPunctuation('🙂 hi 🙂')).toBe('hi');
  });
});
