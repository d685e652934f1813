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
 * - `complaint`: worst, rude, പരാതി / paraathi, മോശം / mosham …
 * A sign defers only when none of the matched intent's own training phrases carries it: an intent
 * trained on "ac not cooling" or "register a complaint" keeps answering those.
 */
export type Sign = 'negation' | 'other action' | 'complaint';

const keysOf = (words: string) => new Set(matchForm(normalise(words)).split(' '));

const SIGN_WORDS: Record<Sign, Set<string>> = {
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
      'പരാതി മോശം കഷ്ടം ദേഷ്യം ചതി പറ്റിച്ചു paraathi parathi mosham kashtam chathi pattichu',
  ),
};

/** "don't", "can't", "isn't" after normalising ("don t"); Malayalam verbs ending in -illa ("kittiyilla"). */
const NEGATIVE_CONTRACTION = /\b(do|does|did|is|are|was|were|ca|wo|could|should|would|have|has)n t\b/;
const NEGATIVE_SUFFIX = /..il+(a+|e+)$/;
const NUMBER_BEFORE = new Set(['phone', 'ph', 'contact', 'mobile', 'mob', 'whatsapp', 'token', 'order', 'room']);

/** The signs in one text. */
export function signsOf(text: string): Set<Sign> {
  const norm = normalise(text);
  const keys = matchForm(norm).split(' ');
  const out = new Set<Sign>();
  for (const [sign, words] of Object.entries(SIGN_WORDS) as Array<[Sign, Set<string>]>)
    if (keys.some((k) => words.has(k))) out.add(sign);
  if (NEGATIVE_CONTRACTION.test(norm)) out.add('negation');
  // "no" is a negation unless it abbreviates "number" (phone no, token no).
  const words = norm.split(' ');
  if (words.some((w, i) => w === 'no' && !NUMBER_BEFORE.has(words[i - 1] ?? ''))) out.add('negation');
  if (romanise(norm).split(' ').some((w) => NEGATIVE_SUFFIX.test(w))) out.add('negation');
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
    .split(/[?？\n]+|[.!]+(?:\s|$)|\s(?:and also|also|pinne|പിന്നെ|കൂടാതെ|koodathe)\s/iu)
    .map((s) => s.trim())
    .filter((s) => normalise(s).length > 0);
}
