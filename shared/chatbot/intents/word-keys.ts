import { normalise } from './normalise.ts';
import { matchForm } from './transliterate.ts';

/**
 * Word lists compared by sound key (`matchForm`), so one entry covers a word's English, Malayalam
 * script and Manglish spellings: shared by the guards' signs, the day names and the vocabulary.
 */
export const keysOf = (words: string) => new Set(matchForm(normalise(words)).split(' '));
