import type { Brain } from '../brain-schema.ts';
import { normalise } from './normalise.ts';
import { matchForm, romanise } from './transliterate.ts';

/**
 * Signs that a message asks something a template answer would get wrong even when its intent is
 * right (docs/chatbot.md, "When the intents defer"). Word lists are written as people type them, in
 * English, Malayalam script and Manglish, and compared by sound key (`matchForm`), so one entry
 * covers the spellings of all three.
 * - `negation`: "not", "don't", ഇല്ല / illa, വേണ്ട / venda … (a "not available?" is not "available?");
 * - `other action`: cancel, reschedule, change, റദ്ദാക്കണം / maattanam … (not the booking the intent starts);
 * - `complaint`: worst, rude, മോശം / mosham, പറ്റിച്ചു / pattichu …;
 * - `other question`: a kind of question — a price (how much, rate, വില / vila) or a place (where,
 *   എവിടെ / evide) — that the intent is never asked ("price of the fridge" is not a repair request).
 * A sign defers only when none of the matched intent's own training phrases carries it: an intent
 * trained on "ac not cooling" or "register a complaint" keeps answering those.
 */
export type Sign = 'negation' | 'other action' | 'complaint' | 'other question';

const keysOf = (words: string) => new Set(matchForm(normalise(words)).split(' '));

const SIGN_WORDS: Record<Exclude<Sign, 'other question'>, Set<string>> = {
  negation: keysOf(
    'not never nothing nobody dont cant cannot wont didnt doesnt isnt arent wasnt shouldnt couldnt ' +
      'ഇല്ല ഇല്ലേ അല്ല അല്ലേ വേണ്ട illa ille alla alle venda vendaa ella',
  ),
  'other action': keysOf(
    'cancel cancelled cancellation reschedule rescheduled postpone prepone change shift modify ' +
      'ക്യാൻസൽ റദ്ദാക്കണം റദ്ദാക്കാമോ റദ്ദാക്കി മാറ്റണം മാറ്റാമോ മാറ്റി മാറ്റിവെക്കണം ' +
      'cancal cansel raddakkanam raddakkamo maattanam mattanam maattamo mattamo maatti matti',
  ),
  complaint: keysOf(
    'complaint complain worst bad terrible horrible pathetic rude angry disappointed unhappy useless ' +
      'waste cheated cheat fraud scam disgusting ' +
      'മോശം കഷ്ടം ദേഷ്യം ചതി പറ്റിച്ചു mosham kashtam chathi pattichu',
  ),
};

/**
 * Question words of a price or a place, compared as written (romanised, not by sound key: "vila",
 * price, and "will" share a key).
 */
const rawWords = (words: string) => new Set(romanise(normalise(words)).split(' '));
const OTHER_QUESTION = rawWords(
  'price prices cost costs rate rates charge charges fee fees much amount ' +
    'വില വിലയെന്താ വിലയെത്ര രൂപ റേറ്റ് ചാർജ് ഫീസ് vila vilayenthu vilayethra roopa ' +
    'where located location address adress addres evide evideya evideyanu evideyaanu evde evda evidya sthalam ' +
    'എവിടെ എവിടെയാണ് വിലാസം സ്ഥലം അഡ്രസ് അഡ്രസ്സ് ലൊക്കേഷൻ',
);

/**
 * What kind of answer a message wants, for the answer-kind guard (docs/chatbot.md, "When the intents
 * defer"): an amount of money, or a booking. A price question answered with booking steps or hours
 * is wrong even when the intent matched ("വൃത്തിയാക്കാൻ എത്ര ആകും", how much to get it cleaned, is
 * not "how do I get it done"), and so is a booking request answered with a fee list.
 * - price: a money word (price, cost, rate, charge, fee, amount, "how much", വില / vila, രൂപ / roopa,
 *   ₹, rs), or എത്ര / ethra in any spelling (ethrya, etra, എത്രയാ, എത്ര ആകും, ethra aavum) unless
 *   the message also says what is counted instead of money: a time (സമയം / samayam, മണി / mani,
 *   hours, days), a distance (doore, km), a warranty's years or a number of people ("ethra aalukal").
 * - booking: book, booking, appointment, token, slot, reserve, ബുക്ക് / bukk, അപ്പോയിന്റ്മെന്റ്.
 * Compared by sound key, so Malayalam script, Manglish and English spellings meet.
 */
export interface Asks {
  price: boolean;
  booking: boolean;
}

/** Money words, compared as written (romanised): by sound key "vila" (price) is "will". */
const PRICE_WORDS = new Set(
  romanise(
    normalise(
      'price prices pricing cost costs costing rate rates charge charges charging fee fees feesu amount much ' +
        'rupees rupee rs inr vila vilaa vilayenthu vilayethra vilayentha vilayethraya roopa rooba rupa ' +
        'chaarj charj charju reate rete thuka ' +
        'വില വിലയെന്താ വിലയെത്ര വിലയെന്ത് രൂപ റേറ്റ് ചാർജ് ഫീസ് തുക',
    ),
  ).split(' '),
);
/** എത്ര / ethra and its spellings and suffixes (ethraya, ethrayaanu, ethrakku, ethrya, etra). */
const ETHRA = /^etr(?:a|y|e|i|$)/;
/** Words that say an എത്ര counts something other than money. */
const COUNTED = keysOf(
  'time timing timings hour hours hrs minute minutes min mins day days week weeks month months year years ' +
    'samayam neram mani manikku manikk divasam dhivasam azhcha masam varsham vare vareyanu ' +
    'സമയം നേരം മണി മണിക്ക് മണിവരെ ദിവസം ആഴ്ച മാസം വർഷം വരെ ' +
    'kollam kollamanu kollamaanu varshatheku warranty guarantee വാറന്റി ഗ്യാരന്റി കൊല്ലം ' +
    'doore dooram dhooram km kilometer distance ദൂരം ദൂരെ ' +
    'people persons person aal aalukal peru staff age vayassu vayas number members ' +
    'ആൾ ആളുകൾ പേര് വയസ്സ് നമ്പർ',
);
const COUNTED_PREFIX = /^(?:manik|manivar|samay|divas)/;
/** Money words with a Malayalam suffix (രൂപയാകും roopayaakum, vilayum, feesinu, chargeinu). */
const PRICE_PREFIX = /^(?:roopa|rupa|rooba|vilay|feesi|feesu|charge|chaarj)/;
const BOOKING_KEYS = keysOf(
  'book booking bookings booked appointment appointments appoinment apointment appt token slot slots ' +
    'reserve reservation ബുക്ക് ബുക്കിംഗ് ബുക്കിങ് അപ്പോയിന്റ്മെന്റ് അപ്പോയിൻമെന്റ് ടോക്കൺ സ്ലോട്ട് bukk bukking',
);
const BOOKING_PREFIX = /^(?:buk|apoint|apoin|tokan|reserv)/;

/** What kind of answer a text asks for (see `Asks`). */
export function asksOf(text: string): Asks {
  const norm = normalise(text);
  const keys = matchForm(norm).split(' ');
  const counted = keys.some((k) => COUNTED.has(k) || COUNTED_PREFIX.test(k));
  const price =
    text.includes('₹') ||
    romanise(norm)
      .split(' ')
      .some((w) => PRICE_WORDS.has(w) || PRICE_PREFIX.test(w)) ||
    (!counted && keys.some((k) => ETHRA.test(k)));
  const booking = keys.some((k) => BOOKING_KEYS.has(k) || BOOKING_PREFIX.test(k));
  return { price, booking };
}

/** "don't", "can't", "isn't" after normalising ("don t"); Malayalam verbs ending in -illa ("kittiyilla"). */
const NEGATIVE_CONTRACTION = /\b(do|does|did|is|are|was|were|ca|wo|could|should|would|have|has)n t\b/;
const NEGATIVE_SUFFIX = /..il+(a+|e+)$/;
const NUMBER_BEFORE = new Set([
  'phone',
  'ph',
  'contact',
  'mobile',
  'mob',
  'whatsapp',
  'token',
  'order',
  'room',
]);

/** The signs in one text. */
export function signsOf(text: string): Set<Sign> {
  const norm = normalise(text);
  const keys = matchForm(norm).split(' ');
  const out = new Set<Sign>();
  for (const [sign, words] of Object.entries(SIGN_WORDS) as Array<[Sign, Set<string>]>)
    if (keys.some((k) => words.has(k))) out.add(sign);
  const raw = romanise(norm).split(' ');
  if (raw.some((w) => OTHER_QUESTION.has(w))) out.add('other question');
  if (NEGATIVE_CONTRACTION.test(norm)) out.add('negation');
  // "no" is a negation unless it abbreviates "number" (phone no, token no).
  const words = norm.split(' ');
  if (words.some((w, i) => w === 'no' && !NUMBER_BEFORE.has(words[i - 1] ?? ''))) out.add('negation');
  if (raw.some((w) => NEGATIVE_SUFFIX.test(w))) out.add('negation');
  return out;
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type Day = (typeof DAYS)[number];

/** Day names as typed: English (and short forms), Malayalam script, Manglish. */
const DAY_WORDS: Record<Day, string> = {
  monday: 'monday mon തിങ്കൾ തിങ്കളാഴ്ച thinkal thinkalazhcha thingal thingalazhcha',
  tuesday: 'tuesday tue tues ചൊവ്വ ചൊവ്വാഴ്ച chovva chovvazhcha',
  wednesday: 'wednesday wed ബുധൻ ബുധനാഴ്ച budhan budhanazhcha budan',
  thursday: 'thursday thu thur thurs വ്യാഴം വ്യാഴാഴ്ച vyazham vyazhazhcha vyaazham',
  friday: 'friday fri വെള്ളി വെള്ളിയാഴ്ച velli velliyazhcha',
  saturday: 'saturday sat ശനി ശനിയാഴ്ച shani shaniyazhcha sani',
  sunday: 'sunday sun ഞായർ ഞായറാഴ്ച njayar njayaru njayarazhcha njayaraazhcha',
};
const DAY_KEYS = new Map<string, Day>();
for (const day of DAYS) for (const k of keysOf(DAY_WORDS[day])) DAY_KEYS.set(k, day);

/** Whether a sound key names a weekday (the matcher leaves day names out: they say when, not what). */
export const isDayKey = (key: string) => DAY_KEYS.has(key);

/** The weekdays a text names. */
export function daysNamed(text: string): Day[] {
  const found = new Set<Day>();
  for (const k of matchForm(normalise(text)).split(' ')) {
    const day = DAY_KEYS.get(k);
    if (day) found.add(day);
  }
  return [...found];
}

/** The named days on which the brain's weekly hours say the business is closed. */
export function closedDaysNamed(text: string, brain: Brain | undefined): Day[] {
  const hours = brain?.contact?.hours;
  if (!hours || typeof hours === 'string') return [];
  return daysNamed(text).filter((d) => hours[d]?.closed === true);
}

/**
 * The message cut into its questions: at question marks, sentence ends, new lines and the words that
 * join a second question ("also", "and also", pinne, പിന്നെ, കൂടാതെ).
 */
export function questionsOf(text: string): string[] {
  return text
    .split(
      /[?？\n]+|[.!]+(?:\s|$)|\s(?:and also|also|pinne|പിന്നെ|കൂടാതെ|koodathe)\s|\s(?:and|&)\s(?=(?:are|is|do|does|what|when|where|how|can|will|r|u)\b)/iu,
    )
    .map((s) => s.trim())
    .filter((s) => normalise(s).length > 0);
}

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
    .filter((k) => k && !FILLER.has(k) && !DAY_KEYS.has(k));

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
          !DAY_KEYS.has(k) &&
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
