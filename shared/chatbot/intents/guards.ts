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
    'where located location address adress addres evide evideya evideyanu evideyaanu sthalam ' +
    'എവിടെ എവിടെയാണ് വിലാസം സ്ഥലം അഡ്രസ് അഡ്രസ്സ് ലൊക്കേഷൻ',
);

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
 * Words that carry no fact of their own: politeness, question words, pronouns, times of day, in
 * English, Malayalam script and Manglish. A message word outside these and outside the tenant's
 * vocabulary (`Vocabulary`) names something the intents and the brain do not know.
 */
const FILLER = keysOf(
  'a an the is are was were am be been do does did can could would will shall may might must i me my we us our ' +
    'you your yours u ur it its this that these those there here what whats wat when where which who how much many ' +
    'for of to in on at by from with about and or but also just still any some all please pls plz kindly sir madam ' +
    'maam dear hi hello hey ok okay thanks thank want need like know tell let get give send share have has had ' +
    'today tomorrow now morning evening night noon time day days week exactly actually really yes yeah ' +
    'open opens opening close closes closing available availability ' +
    'ഒന്ന് ആണ് ആണോ ഉണ്ടോ ഉണ്ട് എന്താ എന്താണ് എത്ര എവിടെ എപ്പോൾ ഇന്ന് നാളെ ചേട്ടാ ചേച്ചി സാർ പറയാമോ ' +
    'അറിയാൻ ഒരു ഈ ആ ഞാൻ എനിക്ക് നിങ്ങൾ നിങ്ങളുടെ ' +
    'onnu aanu ano aano undo und undu entha enthanu ethra evide eppo eppol innu naale chetta chechi ' +
    'parayamo ariyan oru njan enikku ningal ningalude ee aa aakum aavum undakum undavuka cheyyanam cheyyan ' +
    'cheyyamo cheyyumo pattumo kittumo kittum venam veno edukkanam edukkum mathi mathiyo manikku roopa ' +
    'ആകും ആവും ഉണ്ടാകും ഉണ്ടാവുക ചെയ്യണം ചെയ്യാൻ ചെയ്യാമോ ചെയ്യുമോ പറ്റുമോ കിട്ടുമോ കിട്ടും വേണം വേണോ ' +
    'എടുക്കണം എടുക്കും മതി മതിയോ മണിക്ക് രൂപ എത്രയാണ് എത്രയാ ethrayanu ethrayaanu ethraya',
);

/** The sound keys of a text's words that carry meaning (not filler, not a day name). */
export const contentKeys = (text: string) =>
  matchForm(normalise(text))
    .split(' ')
    .filter((k) => k && !FILLER.has(k) && !DAY_KEYS.has(k));

/** The sound keys a tenant's intents and brain use: what the engine can know a message to mean. */
export class Vocabulary {
  private readonly keys = new Set<string>();

  constructor(texts: Iterable<string>) {
    for (const t of texts) for (const k of matchForm(normalise(t)).split(' ')) if (k) this.keys.add(k);
  }

  /** Message words (sound keys of 3+ letters) neither filler nor known, allowing a typo or a suffix. */
  unknownIn(text: string): string[] {
    return matchForm(normalise(text))
      .split(' ')
      .filter((k) => k.length >= 3 && !/\d/.test(k) && !FILLER.has(k) && !DAY_KEYS.has(k) && !this.knows(k));
  }

  private knows(k: string): boolean {
    if (this.keys.has(k)) return true;
    for (const v of this.keys) {
      // A Malayalam suffix on a known stem (klinik → klinikilek), or a known word cut short.
      if (v.length >= 3 && k.length >= 3 && (k.startsWith(v) || v.startsWith(k))) return true;
      if (v.length >= 4 && Math.abs(v.length - k.length) <= 1 && withinOneEdit(k, v)) return true;
    }
    return false;
  }
}

/** Levenshtein distance ≤ 1 (one letter added, dropped or changed). */
function withinOneEdit(a: string, b: string): boolean {
  if (a.length > b.length) [a, b] = [b, a];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.slice(i) === b.slice(i + 1);
}
