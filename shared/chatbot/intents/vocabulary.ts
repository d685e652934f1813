import { isDayKey } from './days.ts';
import { normalise } from './normalise.ts';
import { matchForm } from './transliterate.ts';
import { keysOf } from './word-keys.ts';

/*
 * Which words of a message carry meaning, and which of those the tenant's intents and brain never
 * use (the `unknown words` deferral, docs/chatbot.md): filler lists in three languages and a
 * typo-tolerant vocabulary.
 */

/**
 * Words that carry no fact at all: politeness, greetings, honorifics, SMS-speak, pronouns, articles,
 * family words ("for my mother"), in English, Malayalam script and Manglish. A message made of one
 * topic word and these ("doctor pls") asks nothing in particular.
 */
const EMPTY = keysOf(
  'a an the i me my mine we us our you your yours u ur it its this that these those there here ' +
    'please pls plz plzz pl plse kindly sir sirr madam maam mam dear bro bhai ji team hi hii hiii hello helo hllo ' +
    'hey hai ok okay okey k kk thanks thank thanku thankyou thx tnx ty welcome good gm gn regards just ' +
    'actually exactly really very so also still yes yeah ya yep hmm im iam ive ill id someone anyone ' +
    'mother mom mum father dad son daughter wife husband child kid kids baby brother sister friend family ' +
    'person somebody ആള് ആളെ ആളിനെ ഒരാളെ aal aale aalu aalne oraale ' +
    'ഒന്ന് ഒന്നു ഒരു ഈ ആ ഞാൻ എനിക്ക് എന്റെ ഞങ്ങൾ ഞങ്ങൾക്ക് ഞങ്ങളുടെ നിങ്ങൾ നിങ്ങളുടെ താങ്കൾ ഇത് അത് ' +
    'ചേട്ടാ ചേട്ടൻ ചേച്ചി ഇക്ക ഇക്കാ സാർ സർ മാഡം മാം ദയവായി പ്ലീസ് നമസ്കാരം ഹായ് ഹലോ നന്ദി ശരി ഓക്കെ ' +
    'അമ്മ അമ്മയ്ക്ക് അച്ഛൻ അച്ഛന് മോൾ മോൾക്ക് മോൻ മോന് ഭാര്യ ഭർത്താവ് കുട്ടി കുട്ടിക്ക് കുഞ്ഞ് കെട്ടോ ' +
    'onnu onn oru ee aa njan enikku enikk ente njangal njangalkk njangalude ningal ningalude thaankal ith ithu ath athu ' +
    'chetta chettan chechi chechy ikka ikkaa saar dayavayi namaskaram nanni shari da eda edi mone mole ' +
    'amma ammakku ammaykku achan achanu mol molkku mon monu bharya bharthav kutti kuttikku kunju ketto kettoo',
);

/**
 * Words that say what kind of question it is, or when, but not about what: question words,
 * auxiliaries, common verbs, times of day, in the three languages. With `EMPTY`, the words a message
 * may hold beyond the tenant's vocabulary without deferring.
 */
const QUESTION = keysOf(
  'is are was were am be been do does did can could would will shall may might must ' +
    'what whats wat wt wht when whn where wher whr which who how hw much many whether ' +
    'for of to in on at by from with about abt and or but any some all every each more than then ' +
    'want wanted need needed like know tell let get give send share have has had got see check come coming ' +
    'go going visit reach find looking look right sure possible regarding info information details detail ' +
    'query doubt usually normally generally currently approx approximately around roughly soon early late later ' +
    'today tomorrow tmrw tmrw tom now morning evening afternoon night noon time day days week weekend month year ' +
    'next coming open opens opening opened close closes closing closed available availability work works working ' +
    'cost costs am pm hrs ' +
    'ആണ് ആണോ ഉണ്ടോ ഉണ്ട് എന്താ എന്താണ് എന്ത് എന്തൊക്കെ എത്ര എത്രയാ എത്രയാണ് എവിടെ എവിടെയാ എവിടേക്ക് ' +
    'എപ്പോൾ എപ്പോ എപ്പോഴാ എപ്പോഴാണ് ഏത് ഏതു ഏതൊക്കെ ആര് ആരാണ് എങ്ങനെ എങ്ങിനെ ' +
    'ഇന്ന് നാളെ ഇപ്പോൾ രാവിലെ ഉച്ചയ്ക്ക് ഉച്ചക്ക് വൈകുന്നേരം വൈകിട്ട് രാത്രി സമയം മണി മണിക്ക് ദിവസം ആഴ്ച ' +
    'പറയാമോ പറയൂ പറഞ്ഞു തരാമോ തരുമോ അറിയാൻ അറിയണം അറിയാമോ വേണം വേണോ കിട്ടുമോ കിട്ടും പറ്റുമോ പറ്റും ' +
    'ചെയ്യണം ചെയ്യാൻ ചെയ്യാമോ ചെയ്യുമോ മതി മതിയോ വരണം വരാം വരാമോ വരുമോ കാണാൻ കാണണം ' +
    'ആകും ആവും ആകുമോ ആവുമോ ആയിരിക്കും ഉണ്ടാകും ഉണ്ടാവുക ഉണ്ടാവുമോ എടുക്കണം എടുക്കും രൂപ ' +
    'കുറിച്ച് വേണ്ടി കൂടെ മാത്രം എല്ലാ എല്ലാം വല്ല ഒക്കെ തുറക്കും തുറക്കുമോ തുറക്കുന്നത് അടയ്ക്കും അടക്കും ' +
    'aanu anu ano aano undo und undu unde entha enthanu enthu enth enthokke ethra ethraya ethrayanu ethrayaanu ' +
    'evide evideya evidanu evidekk eppo eppol eppozha eppozhanu eppozhaanu ethu eth ethokke aaru aara engane engine ' +
    'innu inn naale nale ippo ippol raavile ravile uchakk uchaykku vaikunneram vaikittu vaikeet raathri rathri ' +
    'samayam mani manikku divasam azhcha parayamo parayu paranju tharamo tharumo ariyan ariyanam ariyamo venam ' +
    'veno kittumo kittum pattumo pattum cheyyanam cheyyan cheyyamo cheyyumo mathi mathiyo varanam varam varamo ' +
    'varumo kaanan kanan kananam aakum aavum aakumo aavumo aayirikkum undakum undavuka undavumo edukkanam ' +
    'edukkum roopa rs kurichu vendi koode mathram ella ellam okke thurakkum thurakkumo adakkum ' +
    // Spellings the sound key does not merge (a dropped or added inner vowel, a cut-off ending).
    'ethrya ethryaa evde evda evidya kittuo patto pattuo venamayirunnu venamaayirunnu undavo aavo',
);

const FILLER = new Set([...EMPTY, ...QUESTION]);

/**
 * Malayalam verb endings in sound keys (`matchForm`): "-ുമോ"/"-umo" (will it), "-ുന്നത്" (the
 * …ing), "-ാൻ" (to …), "-ണം" (must), "-ാമോ" (may I), "-ത്താൽ" (if). An unknown verb says what is done,
 * not to what: the thing asked about is a noun, and nouns are what the vocabulary check is for.
 * A negated verb (-illa) is also the `negation` sign's, which defers unless the intent is trained on it.
 */
const ML_VERB = /^[a-z]{3,}(?:unat|unil|ikum|akum|ukum|kum|tum|yum|lum|kan|yan|kam|yam|anam|enam|tal)$/;

/** The sound keys of a text's words that carry meaning (not filler, not a day name). */
export const contentKeys = (text: string) =>
  matchForm(normalise(text))
    .split(' ')
    .filter((k) => k && !FILLER.has(k) && !isDayKey(k));

/** The sound keys of a text's words that are not `EMPTY` (topic, question and day words). */
export const saidKeys = (text: string) =>
  matchForm(normalise(text))
    .split(' ')
    .filter((k) => k && !EMPTY.has(k));

/** The sound keys a tenant's intents and brain use: what the engine can know a message to mean. */
export class Vocabulary {
  private readonly keys = new Set<string>();

  constructor(texts: Iterable<string>) {
    for (const t of texts) for (const k of matchForm(normalise(t)).split(' ')) if (k) this.keys.add(k);
  }

  /**
   * Message words (sound keys of 3+ letters) that could name something the tenant does not know: not
   * filler, not a day, not a Malayalam verb form, and not a known word with a typo (one letter, two in
   * a word of 6+), a suffix or cut short.
   */
  unknownIn(text: string): string[] {
    return matchForm(normalise(text))
      .split(' ')
      .filter(
        (k) =>
          k.length >= 3 &&
          !/\d/.test(k) &&
          !FILLER.has(k) &&
          !isDayKey(k) &&
          !ML_VERB.test(k) &&
          !this.knows(k),
      );
  }

  private knows(k: string): boolean {
    if (this.keys.has(k)) return true;
    for (const v of this.keys) {
      // A Malayalam suffix on a known stem (klinik → klinikilek), or a known word cut short. The
      // stem has 4+ letters and the suffix at most 5: "fis" (fees) is no stem of "fisioterap".
      if (v.length >= 4 && k.length - v.length <= 5 && k.startsWith(v)) return true;
      if (k.length >= 4 && v.startsWith(k)) return true;
      if (v.length >= 4 && Math.abs(v.length - k.length) <= 1 && withinOneEdit(k, v)) return true;
      // Two typos only after the same first two letters: "threading" is not "timing", nor
      // "parking" "working" (a service or facility the tenant never named is not a typo).
      if (
        v.length >= 6 &&
        k.length >= 6 &&
        k.slice(0, 2) === v.slice(0, 2) &&
        Math.abs(v.length - k.length) <= 2 &&
        withinEdits(k, v, 2)
      )
        return true;
    }
    return false;
  }
}

/** Levenshtein distance ≤ max (bounded dynamic programme; words are short). */
function withinEdits(a: string, b: string, max: number): boolean {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let low = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      low = Math.min(low, v);
    }
    if (low > max) return false;
    prev = cur;
  }
  return (prev[b.length] as number) <= max;
}

/** Levenshtein distance ≤ 1 (one letter added, dropped or changed). */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.slice(i) === b.slice(i + 1);
}
