import { describe, expect, it } from 'vitest';
import { normalise } from './normalise.ts';
import { matchForm, romanise, soundKey } from './transliterate.ts';

const form = (t: string) => matchForm(normalise(t));

describe('transliterate', () => {
  it('romanises Malayalam script the way Manglish is typed', () => {
    expect(romanise(normalise('എന്ത്'))).toBe('enthu');
    expect(romanise(normalise('ക്ലിനിക്കിന്റെ'))).toBe('klinikkinte');
    expect(romanise(normalise('ഞായറാഴ്ച'))).toBe('njaayaraazhcha');
    expect(romanise('no malayalam here')).toBe('no malayalam here');
  });

  it('gives Malayalam script and its Manglish spellings one sound key', () => {
    expect(form('ക്ലിനിക് എപ്പോൾ തുറക്കും')).toBe(form('clinic eppol thurakkum'));
    expect(form('ഫീസ് എത്ര')).toBe(form('fees ethra'));
    expect(form('ബുക്ക് ചെയ്യണം')).toBe(form('book cheyyanam'));
    expect(form('ഞായറാഴ്ച തുറക്കുമോ')).toBe(form('njayarazhcha thurakkumo'));
    expect(form('ഇന്നുണ്ടോ')).toBe(form('innundo'));
  });

  it('merges spelling variants: doubled letters, long vowels, aspirates, a final vowel', () => {
    expect(soundKey('thurakkum')).toBe(soundKey('turakum'));
    expect(soundKey('feesu')).toBe(soundKey('fees'));
    expect(soundKey('eppozha')).toBe(soundKey('eppola'));
    expect(soundKey('clinic')).toBe(soundKey('klinik'));
    // "ch" stays apart from "k": chaaya is not kaaya.
    expect(soundKey('chaaya')).not.toBe(soundKey('kaaya'));
  });

  it('gives common Manglish spelling variants one sound key', () => {
    for (const [a, b] of [
      ['cheyyan', 'cheyan'],
      ['undo', 'undoo'],
      ['undo', 'undaa'],
      ['evide', 'evida'],
      ['eppol', 'eppozha'],
      ['aanu', 'anu'],
      ['ethra', 'etra'],
      ['kittumo', 'kittum'],
      ['thurakkumo', 'thurakumo'],
    ] as const)
      expect(soundKey(a), `${a} ${b}`).toBe(soundKey(b));
    expect(form('ചെയ്യാൻ')).toBe(form('cheyan'));
  });
});
