import { normalise } from './normalise.ts';
import { matchForm, romanise } from './transliterate.ts';
import { keysOf } from './word-keys.ts';

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
