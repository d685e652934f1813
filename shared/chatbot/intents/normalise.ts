/**
 * Text normalisation of the intent engine, applied to training phrases and messages alike: NFC;
 * Malayalam chillu letters (U+0D7A–U+0D7F) written as base consonant + virama, and the old chillu
 * spelling (consonant + virama + ZWJ) reduced to the same by dropping ZWJ/ZWNJ; lower case; Latin
 * accents dropped (combining marks U+0300–U+036F only, so Indic vowel signs stay); punctuation and
 * symbols as spaces; runs of whitespace as one space, trimmed.
 */

const CHILLU: Record<string, string> = {
  '\u0d7a': '\u0d23\u0d4d', // ൺ → ണ്
  '\u0d7b': '\u0d28\u0d4d', // ൻ → ന്
  '\u0d7c': '\u0d30\u0d4d', // ർ → ര്
  '\u0d7d': '\u0d32\u0d4d', // ൽ → ല്
  '\u0d7e': '\u0d33\u0d4d', // ൾ → ള്
  '\u0d7f': '\u0d15\u0d4d', // ൿ → ക്
};
const CHILLU_RE = /[\u0d7a-\u0d7f]/g;
const JOINERS = /[\u200c\u200d]/g;
const LATIN_ACCENTS = /[\u0300-\u036f]/g;
const PUNCTUATION = /[\p{P}\p{S}]/gu;
const SPACES = /\s+/gu;

export function normalise(text: string): string {
  return text
    .normalize('NFC')
    .replace(CHILLU_RE, (c) => CHILLU[c] ?? c)
    .replace(JOINERS, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(LATIN_ACCENTS, '')
    .normalize('NFC')
    .replace(PUNCTUATION, ' ')
    .replace(SPACES, ' ')
    .trim();
}

/** `ml` when the text has a Malayalam letter, otherwise `en`. */
export function detectLanguage(text: string): 'ml' | 'en' {
  return /[\u0d00-\u0d7f]/.test(text) ? 'ml' : 'en';
}
