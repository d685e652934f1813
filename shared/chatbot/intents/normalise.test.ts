import { describe, expect, it } from 'vitest';
import { detectLanguage, normalise } from './normalise.ts';

describe('normalise', () => {
  it('writes every chillu letter as base consonant + virama', () => {
    expect(normalise('\u0d7a\u0d7b\u0d7c\u0d7d\u0d7e\u0d7f')).toBe(
      '\u0d23\u0d4d\u0d28\u0d4d\u0d30\u0d4d\u0d32\u0d4d\u0d33\u0d4d\u0d15\u0d4d',
    );
  });

  it('gives the atomic chillu, the old ZWJ spelling and the bare virama form the same text', () => {
    const atomic = 'എപ്പോ\u0d7e തുറക്കും'; // ൾ
    const oldZwj = 'എപ്പോ\u0d33\u0d4d\u200d തുറക്കും'; // ള + ് + ZWJ
    const bare = 'എപ്പോ\u0d33\u0d4d തുറക്കും';
    expect(normalise(atomic)).toBe(normalise(oldZwj));
    expect(normalise(atomic)).toBe(normalise(bare));
    expect(normalise('ഡോക്ട\u0d7c')).toBe(normalise('ഡോക്ട\u0d30\u0d4d\u200d'));
    expect(normalise('അവ\u0d7b')).toBe(normalise('അവ\u0d28\u0d4d\u200d'));
  });

  it('drops ZWNJ and ZWJ elsewhere', () => {
    expect(normalise('ക\u0d4d\u200cക')).toBe('ക\u0d4dക');
  });

  it('composes to NFC (a decomposed Malayalam vowel sign equals the composed one)', () => {
    // ൊ (U+0D4A) = െ (U+0D46) + ാ (U+0D3E)
    expect(normalise('\u0d15\u0d46\u0d3e')).toBe(normalise('\u0d15\u0d4a'));
    expect(normalise('\u0d15\u0d46\u0d3e')).toBe('\u0d15\u0d4a');
  });

  it('lower-cases, strips Latin accents, turns punctuation into spaces and collapses whitespace', () => {
    expect(normalise('  Café   OPENING-hours?!  ')).toBe('cafe opening hours');
    expect(normalise('Dr. Anitha’s  slots\n\ttoday…')).toBe('dr anitha s slots today');
  });

  it('keeps Malayalam vowel signs and numbers', () => {
    expect(normalise('ഫീസ് എത്ര? ₹400')).toBe('ഫീസ് എത്ര 400');
  });
});

describe('detectLanguage', () => {
  it('is ml with a Malayalam letter, en otherwise', () => {
    expect(detectLanguage('ഡോക്ടർ ഉണ്ടോ')).toBe('ml');
    expect(detectLanguage('doctor undo?')).toBe('en');
    expect(detectLanguage('is Dr Anitha ഇന്ന് available')).toBe('ml');
  });
});
