/**
 * One spelling for Malayalam script, Manglish (Malayalam in Latin letters) and English, so a message
 * and a training phrase written in different scripts or spellings share character n-grams
 * (docs/chatbot.md, "Languages"). Input is `normalise`d text (chillu letters already base + virama).
 *
 * 1. Malayalam script is romanised the way people type Manglish: ക → k, ത → th, ഴ → zh, a consonant
 *    without a vowel sign carries "a", a word-final virama is the spoken "u" (എന്ത് → enthu).
 * 2. The Latin text (romanised or typed) is reduced to a sound key: aspirates and spelling variants
 *    merged (th/t, dh/d, zh/l, ph/f, w/v, sh/s, c/k, q/k, x/ks, z/s), vowel lengths merged (aa/a,
 *    ee/i, oo/u), doubled letters single, and a word's final vowel dropped (ഫീസ് "feesu" = "fees").
 * The key is for matching only: it is never shown.
 */

const CONSONANT: Record<string, string> = {
  ക: 'k',
  ഖ: 'kh',
  ഗ: 'g',
  ഘ: 'gh',
  ങ: 'ng',
  ച: 'ch',
  ഛ: 'ch',
  ജ: 'j',
  ഝ: 'jh',
  ഞ: 'nj',
  ട: 't',
  ഠ: 'th',
  ഡ: 'd',
  ഢ: 'dh',
  ണ: 'n',
  ത: 'th',
  ഥ: 'th',
  ദ: 'd',
  ധ: 'dh',
  ന: 'n',
  പ: 'p',
  ഫ: 'f',
  ബ: 'b',
  ഭ: 'bh',
  മ: 'm',
  യ: 'y',
  ര: 'r',
  റ: 'r',
  ല: 'l',
  ള: 'l',
  ഴ: 'zh',
  വ: 'v',
  ശ: 'sh',
  ഷ: 'sh',
  സ: 's',
  ഹ: 'h',
};
const VOWEL: Record<string, string> = {
  അ: 'a',
  ആ: 'aa',
  ഇ: 'i',
  ഈ: 'ee',
  ഉ: 'u',
  ഊ: 'oo',
  ഋ: 'ru',
  എ: 'e',
  ഏ: 'e',
  ഐ: 'ai',
  ഒ: 'o',
  ഓ: 'o',
  ഔ: 'au',
};
const SIGN: Record<string, string> = {
  'ാ': 'aa',
  'ി': 'i',
  'ീ': 'ee',
  'ു': 'u',
  'ൂ': 'oo',
  'ൃ': 'ru',
  'െ': 'e',
  'േ': 'e',
  'ൈ': 'ai',
  'ൊ': 'o',
  'ോ': 'o',
  'ൌ': 'au',
  'ൗ': 'au',
};
const VIRAMA = '\u0d4d';
const ANUSVARA = '\u0d02';
const VISARGA = '\u0d03';
const MALAYALAM = /[\u0d00-\u0d7f]/;

/** Malayalam script in Latin letters, as Manglish is typed; other characters unchanged. */
export function romanise(text: string): string {
  if (!MALAYALAM.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    const cons = CONSONANT[c];
    if (cons !== undefined) {
      // ന്റ is "nt" (ente), റ്റ is "tt" (matter): the usual Manglish spellings.
      if (c === 'റ' && next === VIRAMA && text[i + 2] === 'റ') {
        out += 't';
        i++;
        continue;
      }
      out += c === 'റ' && out.endsWith('n') && text[i - 1] === VIRAMA ? 't' : cons;
      if (next === VIRAMA) {
        i++;
        const after = text[i + 1];
        // A word-final virama is the half "u" people write (എന്ത് → enthu).
        if (after === undefined || !MALAYALAM.test(after)) out += 'u';
      } else if (next === undefined || !(next in SIGN)) out += 'a';
      continue;
    }
    const sign = SIGN[c];
    if (sign !== undefined) {
      out += sign;
      continue;
    }
    const vowel = VOWEL[c];
    if (vowel !== undefined) out += vowel;
    else if (c === ANUSVARA) out += 'm';
    else if (c === VISARGA) out += 'h';
    else if (c === VIRAMA) continue;
    else out += c;
  }
  return out;
}

const SOUND: Array<[RegExp, string]> = [
  // ങ്ങ and ഞ്ഞ are typed "ng" and "nj" (engane, njan).
  [/(ng)+/g, 'ng'],
  [/(nj)+/g, 'nj'],
  [/ngk/g, 'nk'],
  [/njch|njc/g, 'nch'],
  [/zh/g, 'l'],
  [/ph/g, 'f'],
  [/q/g, 'k'],
  [/x/g, 'ks'],
  // "ch" is its own sound (ചായ chaaya); a lone "c" is English k/s (clinic, ക്ലിനിക്).
  [/ch/g, 'C'],
  [/c/g, 'k'],
  [/C/g, 'c'],
  [/([ktdpgbjs])h/g, '$1'],
  [/w/g, 'v'],
  [/z/g, 's'],
  // "cheyyan"/"cheyan": a doubled y is one (before y-as-vowel below turns the first into "i").
  [/yy+/g, 'y'],
  [/y(?=[^aeiou]|$)/g, 'i'],
  [/ee|ie|ea/g, 'i'],
  [/oo|ou/g, 'u'],
  [/([a-z])\1+/g, '$1'],
  // ണ്ട is typed "nd" (undo) and romanised "nt": one spelling.
  [/nd/g, 'nt'],
];

/** The sound key of one Latin word (see the module comment); digits and other scripts unchanged. */
export function soundKey(word: string): string {
  let w = word;
  for (const [re, to] of SOUND) w = w.replace(re, to);
  // A final vowel is often dropped or added in Manglish (fees/feesu, book/bukku, venam/venamo).
  if (w.length > 3) w = w.replace(/[aeiou]$/, '');
  return w;
}

/** A normalised text as sound keys, word by word, after romanising Malayalam script. */
export function matchForm(norm: string): string {
  return romanise(norm)
    .split(' ')
    .map((w) => (/^[a-z]+$/.test(w) ? soundKey(w) : w))
    .join(' ');
}
