/**
 * How rule keywords and messages are compared (`exact`, `contains`): Unicode compatibility
 * decomposition (NFKD: `ﬁ` → `fi`, full-width → ASCII), accents dropped (the combining diacritical
 * mark blocks only, so Indic vowel signs stay), ZWJ/ZWNJ removed and Malayalam chillu letters written
 * as base + virama (both spellings of a word compare equal), lower case, runs of whitespace as one
 * space, trimmed.
 */

const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const JOINERS = /[\u200c\u200d]/g;
const CHILLU: Record<string, string> = {
  '\u0d7a': '\u0d23\u0d4d',
  '\u0d7b': '\u0d28\u0d4d',
  '\u0d7c': '\u0d30\u0d4d',
  '\u0d7d': '\u0d32\u0d4d',
  '\u0d7e': '\u0d33\u0d4d',
  '\u0d7f': '\u0d15\u0d4d',
};
const CHILLU_RE = /[\u0d7a-\u0d7f]/g;

export function normaliseForMatch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .replace(JOINERS, '')
    .replace(CHILLU_RE, (c) => CHILLU[c] ?? c)
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Punctuation and symbols at either end dropped (`Hello!` → `hello` for an exact rule). */
export function trimPunctuation(normalised: string): string {
  return normalised.replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '');
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
export const isWordChar = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);
