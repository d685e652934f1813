import type { Brain } from '../brain-schema.ts';
import type { Intent } from '../intents-schema.ts';
import { normalise } from './normalise.ts';
import { matchForm } from './transliterate.ts';

export type Lang = 'en' | 'ml';

/**
 * What an intent's answer is (docs/chatbot.md, "Intent engine"):
 * 1. the intent's own `responses[lang]` in the question's language, with `{{placeholders}}` (the
 *    names of `FACTS`, e.g. `{{hours}}`) filled from the brain;
 * 2. otherwise the reply template its `action` names (`ACTIONS`), filled from the brain.
 * `undefined` (the model answers) when neither exists in that language, or when the template needs
 * data the brain lacks: a missing field, or, for a Malayalam question, a free-text field (booking
 * instructions, warranty terms) written without Malayalam letters.
 */
export function answerFor(intent: Intent, lang: Lang, brain: Brain | undefined, question: string) {
  const own = intent.responses?.[lang];
  if (own) return fill(own, lang, brain, question);
  const action = ACTIONS[intent.action];
  if (!action || !brain) return undefined;
  const fact = FACTS[action.fact](brain, lang, question);
  return fact === undefined ? undefined : action[lang](fact, brain);
}

/** Whether an intent can answer without the model at all (a response or a known action). */
export const hasTemplate = (intent: Intent) =>
  Object.keys(intent.responses ?? {}).length > 0 || intent.action in ACTIONS;

function fill(template: string, lang: Lang, brain: Brain | undefined, question: string) {
  let missing = false;
  const text = template.replace(/\{\{\s*([a-z_.]+)\s*\}\}/g, (_, name: string) => {
    const f = name === 'business.name' ? 'name' : name;
    const value = brain && f in FACTS ? FACTS[f as FactName](brain, lang, question) : undefined;
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : text;
}

const ML_RE = /[\u0d00-\u0d7f]/;
/**
 * A free-text brain field usable in `lang`: any text for English; for `ml`, its Malayalam version
 * (`termsMl`, `instructionsMl`) or the field itself when written in Malayalam script.
 */
const inLang = (text: string | undefined, lang: Lang, ml?: string) =>
  lang === 'ml' && ml ? ml : text && (lang === 'en' || ML_RE.test(text)) ? text : undefined;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const DAY_NAMES: Record<Lang, string[]> = {
  en: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  ml: ['തിങ്കൾ', 'ചൊവ്വ', 'ബുധൻ', 'വ്യാഴം', 'വെള്ളി', 'ശനി', 'ഞായർ'],
};
const WORDS = {
  en: { closed: 'closed', to: 'to', sep: '; ' },
  ml: { closed: 'അവധി', to: 'മുതൽ', sep: '; ' },
} as const;

/** Consecutive days with the same value as one range ("Monday to Friday 08:30-20:00"). */
function dayRanges(values: Array<string | undefined>, lang: Lang): string {
  const parts: string[] = [];
  for (let i = 0; i < 7; i++) {
    const v = values[i];
    if (v === undefined) continue;
    let j = i;
    while (j + 1 < 7 && values[j + 1] === v) j++;
    const names = DAY_NAMES[lang];
    const days = i === j ? names[i] : `${names[i]} ${WORDS[lang].to} ${names[j]}`;
    parts.push(`${days} ${v}`);
    i = j;
  }
  return parts.join(WORDS[lang].sep);
}

const money = (v: number | string | undefined, currency = '') =>
  v === undefined
    ? undefined
    : typeof v === 'number'
      ? `${currency === 'INR' ? '₹' : currency ? `${currency} ` : ''}${v}`
      : v;

/** A brain fact rendered as text in one language, or undefined when the brain lacks it. */
type Fact = (brain: Brain, lang: Lang, question: string) => string | undefined;

const FACTS = {
  name: (b) => b.business.name,
  hours: (b, lang) => {
    const h = b.contact?.hours;
    if (!h) return undefined;
    if (typeof h === 'string') return inLang(h, lang);
    const values = DAYS.map((d) => {
      const day = h[d];
      if (!day) return undefined;
      if (day.closed) return WORDS[lang].closed;
      return day.open && day.close ? `${day.open}-${day.close}` : undefined;
    });
    return values.some((v) => v !== undefined) ? dayRanges(values, lang) : undefined;
  },
  address: (b) => {
    const l = b.location;
    if (!l?.address) return undefined;
    const line = [l.address, l.city, l.postalCode].filter(Boolean).join(', ');
    const extra = [l.landmarks?.[0], l.mapUrl].filter(Boolean).join(' · ');
    return extra ? `${line} (${extra})` : line;
  },
  contact: (b) => {
    const c = b.contact;
    const parts = [...(c?.phones ?? []), c?.whatsapp && `WhatsApp ${c.whatsapp}`, c?.email, c?.website];
    const list = [...new Set(parts.filter((p): p is string => Boolean(p)))];
    return list.length ? list.join(', ') : undefined;
  },
  doctors: (b) =>
    b.doctors?.length
      ? b.doctors.map((d) => (d.specialty ? `${d.name} (${d.specialty})` : d.name)).join(', ')
      : undefined,
  doctor_slots: (b, lang, question) => {
    const all = b.doctors?.filter((d) => d.availability) ?? [];
    if (!all.length) return undefined;
    const asked = mentioned(all, question, (d) => `${d.name} ${d.specialty ?? ''}`);
    const lines = asked.map((d) => {
      const a = d.availability ?? {};
      return `${d.name}: ${dayRanges(
        DAYS.map((day) => a[day]?.join(', ') || undefined),
        lang,
      )}`;
    });
    return lines.join('\n');
  },
  fees: (b) => {
    const withFee = b.doctors?.filter((d) => d.fee !== undefined) ?? [];
    if (!withFee.length) return undefined;
    return withFee.map((d) => `${d.specialty ?? d.name} ${money(d.fee, b.business.currency)}`).join(', ');
  },
  services: (b, _lang, question) => {
    const all = b.services ?? [];
    if (!all.length) return undefined;
    return mentioned(all, question, (s) => [s.name, ...(s.aliases ?? [])].join(' '))
      .map((s) => (s.price === undefined ? s.name : `${s.name} ${money(s.price, b.business.currency)}`))
      .join(', ');
  },
  booking: (b, lang) => {
    const bk = b.booking;
    const how = inLang(bk?.instructions, lang, bk?.instructionsMl);
    if (!how && !bk?.url && !bk?.phone) return undefined;
    if (!how && lang === 'ml' && bk?.instructions) return undefined;
    return [how, bk?.url, bk?.phone].filter(Boolean).join(' ');
  },
  payment: (b, lang) => {
    const p = b.booking?.payment;
    if (!p) return undefined;
    return Array.isArray(p) ? p.join(', ') : inLang(p, lang);
  },
  warranty: (b, lang) => {
    const w = b.warranty;
    const periods = w?.periods?.map((p) => `${p.product}: ${p.period}`).join(', ');
    const terms = inLang(w?.terms, lang, w?.termsMl);
    if (w?.terms && !terms) return undefined;
    const text = [terms, periods].filter(Boolean).join(' ');
    return text || undefined;
  },
  stock: (b, lang, question) => {
    const items = b.stock?.items ?? [];
    const asked = mentioned(items, question, (i) => [i.name, i.sku, ...(i.aliases ?? [])].join(' '));
    // Only a question naming a product can be answered from the list.
    if (!items.length || asked.length === items.length) return undefined;
    const yes = lang === 'ml' ? 'സ്റ്റോക്കുണ്ട്' : 'in stock';
    const no = lang === 'ml' ? 'സ്റ്റോക്കില്ല' : 'out of stock';
    return asked
      .slice(0, 5)
      .map((i) => {
        const state = i.inStock === undefined ? '' : i.inStock || (i.quantity ?? 0) > 0 ? yes : no;
        return [i.name, state, money(i.price, b.business.currency)].filter(Boolean).join(', ');
      })
      .join('\n');
  },
} satisfies Record<string, Fact>;
type FactName = keyof typeof FACTS;

/**
 * The items the question names, compared by sound key (`matchForm`, so "ഏലക്ക", "elakka" and an
 * alias written either way meet): the same key, or keys of 4+ letters sharing their first 5 letters;
 * two message words that together make a label word ("hair cut") count as that word. A key found in
 * several items' labels ("podi", powder) weighs less than one found in one item's ("kaapi"); the
 * items with at least half the best weight are named. All of them when the question names none.
 */
function mentioned<T>(items: T[], question: string, label: (t: T) => string): T[] {
  const labels = items.map((it) => keysOf(label(it)));
  const matches = (k: string) => labels.map((l) => l.some((w) => sameWord(k, w)));
  const words = keysOf(question);
  const asked: Array<boolean[]> = [];
  for (let i = 0; i < words.length; i++) {
    const joined = i + 1 < words.length ? matches(`${words[i]}${words[i + 1]}`) : [];
    if (joined.some(Boolean)) {
      asked.push(joined);
      i++;
    } else asked.push(matches(words[i] as string));
  }
  const weight = items.map(() => 0);
  for (const hit of asked) {
    const n = hit.filter(Boolean).length;
    hit.forEach((h, i) => {
      if (h) weight[i] = (weight[i] as number) + 1 / n;
    });
  }
  const best = Math.max(0, ...weight);
  return best > 0 ? items.filter((_, i) => (weight[i] as number) >= best / 2) : items;
}

const keysOf = (text: string) =>
  matchForm(normalise(text))
    .split(' ')
    .filter((k) => k.length >= 2);

const sameWord = (a: string, b: string) =>
  a === b || (a.length >= 4 && b.length >= 4 && a.slice(0, 5) === b.slice(0, 5));

interface Action {
  fact: FactName;
  en: (fact: string, brain: Brain) => string;
  ml: (fact: string, brain: Brain) => string;
}

const act = (fact: FactName, en: string, ml: string): Action => ({
  fact,
  en: (f, b) => en.replace('{fact}', f).replace('{name}', b.business.name),
  ml: (f, b) => ml.replace('{fact}', f).replace('{name}', b.business.name),
});

const hours = act('hours', 'Our hours: {fact}.', 'പ്രവർത്തന സമയം: {fact}.');
const address = act('address', 'We are at {fact}.', 'വിലാസം: {fact}.');
const contact = act('contact', 'You can reach {name} at {fact}.', 'ബന്ധപ്പെടാൻ: {fact}.');
const doctors = act('doctors', 'Our doctors: {fact}.', 'ഞങ്ങളുടെ ഡോക്ടർമാർ: {fact}.');
const slots = act('doctor_slots', "Doctors' consulting times:\n{fact}", 'ഡോക്ടർമാരുടെ സമയം:\n{fact}');
const fees = act('fees', 'Consultation fees: {fact}.', 'കൺസൾട്ടേഷൻ ഫീസ്: {fact}.');
const services = act('services', 'Our services: {fact}.', 'ഞങ്ങളുടെ സേവനങ്ങൾ: {fact}.');
const booking = act('booking', 'To book: {fact}', 'ബുക്ക് ചെയ്യാൻ: {fact}');
const payment = act('payment', 'We accept {fact}.', 'സ്വീകരിക്കുന്ന പേയ്മെന്റ്: {fact}.');
const warranty = act('warranty', 'Warranty: {fact}', 'വാറന്റി: {fact}');
const stock = act('stock', '{fact}', '{fact}');
const greeting = act(
  'name',
  'Hello! Welcome to {fact}. How can we help you?',
  'നമസ്കാരം! {fact}-ലേക്ക് സ്വാഗതം. എന്ത് സഹായമാണ് വേണ്ടത്?',
);
const thanks = act(
  'name',
  "You're welcome! Anything else we can help with?",
  'നന്ദി! വേറെ എന്തെങ്കിലും സഹായം വേണോ?',
);
const goodbye = act('name', 'Thank you for contacting {fact}. Take care!', 'നന്ദി! വീണ്ടും കാണാം.');

/**
 * The known actions: name → the brain fact it needs and its reply template per language. Several
 * names per template, so files written as `clinic_hours` or `answer_hours` both work.
 */
export const ACTIONS: Record<string, Action> = {
  greeting,
  thanks,
  goodbye,
  clinic_hours: hours,
  business_hours: hours,
  answer_hours: hours,
  clinic_address: address,
  location: address,
  answer_location: address,
  contact_info: contact,
  answer_contact: contact,
  doctor_list: doctors,
  answer_doctors: doctors,
  doctor_availability: slots,
  answer_doctor_slots: slots,
  consultation_fees: fees,
  answer_fees: fees,
  services_list: services,
  answer_services: services,
  answer_prices: services,
  booking_howto: booking,
  start_booking: booking,
  payment_methods: payment,
  answer_payment: payment,
  warranty_info: warranty,
  answer_warranty: warranty,
  stock_check: stock,
  answer_stock: stock,
};
