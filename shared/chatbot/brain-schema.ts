import { z } from 'zod';

/**
 * The brain: a business's knowledge base the chatbot answers from (docs/chatbot.md, "Knowledge:
 * brain, prompt, intents"). Every field is optional except `business.name`, and every object keeps
 * keys it does not know, so a brain written for another tool is stored as it is. The docs table of
 * fields is generated from this schema (`brainFieldRows`); descriptions here are the documentation.
 */

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Text = (max = 2_000) => z.string().trim().max(max);
const Url = z.string().trim().max(2_048).url('must be a URL');
const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time `HH:MM` (24-hour)');
const Slot = z
  .string()
  .regex(
    /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]|24):[0-5]\d$/,
    'a time range `HH:MM-HH:MM`, e.g. `09:00-12:00`',
  )
  .describe('a time range `HH:MM-HH:MM`');
const Price = z
  .union([z.number().nonnegative(), Text(100)])
  .describe('a number in `business.currency`, or a text such as "from 500"');

/** Build `{ monday?: T, …, sunday?: T }`, keeping other keys. */
function perWeekday<T extends z.ZodType>(value: T) {
  const shape = Object.fromEntries(WEEKDAYS.map((d) => [d, value.optional()])) as Record<
    Weekday,
    z.ZodOptional<T>
  >;
  return z.object(shape).loose();
}

export const DayHours = z
  .object({
    open: Time.optional().describe('opening time `HH:MM`'),
    close: Time.optional().describe('closing time `HH:MM`'),
    closed: z.boolean().optional().describe('true: closed all day'),
  })
  .loose();

export const Business = z
  .object({
    name: Text(200).min(1).describe('the business name (the only required field of a brain)'),
    tagline: Text(300).optional().describe('one line about the business'),
    profile: z
      .enum(['clinic', 'appliances', 'ecommerce', 'salon'])
      .optional()
      .describe('the tenant profile this brain was written for'),
    industry: Text(100).optional().describe('free text, e.g. "dental clinic"'),
    description: Text(4_000).optional().describe('a paragraph about the business'),
    currency: Text(10).optional().describe('currency of prices and fees, e.g. `INR`'),
    languages: z.array(Text(50)).max(20).optional().describe('languages the business answers in'),
  })
  .loose();

export const Location = z
  .object({
    address: Text(500).optional().describe('street address'),
    city: Text(100).optional(),
    state: Text(100).optional(),
    country: Text(100).optional(),
    postalCode: Text(20).optional(),
    mapUrl: Url.optional().describe('a map link'),
    landmarks: z.array(Text(200)).max(50).optional().describe('nearby landmarks, for directions'),
  })
  .loose();

export const Contact = z
  .object({
    phones: z.array(Text(30)).max(20).optional().describe('phone numbers with country code'),
    whatsapp: Text(30).optional().describe('the number customers message'),
    email: z.string().trim().max(254).email().optional(),
    website: Url.optional(),
    hours: z
      .union([Text(1_000), perWeekday(DayHours)])
      .optional()
      .describe('opening hours: per weekday `{ open, close }` or `{ closed: true }`, or a text'),
  })
  .loose();

export const Doctor = z
  .object({
    name: Text(200).min(1).describe('e.g. "Dr. Anitha Menon"'),
    specialty: Text(200).optional(),
    qualifications: z
      .union([Text(500), z.array(Text(200)).max(20)])
      .optional()
      .describe('a text or a list'),
    languages: z.array(Text(50)).max(20).optional(),
    availability: perWeekday(z.array(Slot).max(24))
      .optional()
      .describe('per weekday, the consulting slots, e.g. `{ "monday": ["09:00-12:00"] }`'),
    fee: Price.optional().describe('consultation fee'),
  })
  .loose();

export const Service = z
  .object({
    name: Text(200).min(1),
    aliases: z
      .array(Text(200))
      .max(20)
      .optional()
      .describe('other names customers use, e.g. in Malayalam script or Manglish ("ഏലക്ക", "elakka")'),
    description: Text(2_000).optional(),
    price: Price.optional(),
    duration: z
      .union([z.number().int().positive(), Text(50)])
      .optional()
      .describe('minutes, or a text such as "45 min"'),
  })
  .loose();

export const Booking = z
  .object({
    instructions: Text(4_000).optional().describe('how to book, as the bot should explain it'),
    instructionsMl: Text(4_000).optional().describe('the same in Malayalam script, for Malayalam questions'),
    advanceDays: z.number().int().min(0).max(365).optional().describe('how many days ahead one can book'),
    payment: z
      .union([Text(1_000), z.array(Text(100)).max(20)])
      .optional()
      .describe('accepted payment: a text or a list of methods'),
    url: Url.optional().describe('an online booking link'),
    phone: Text(30).optional().describe('the number to call for bookings'),
  })
  .loose();

export const Warranty = z
  .object({
    terms: Text(4_000).optional().describe('warranty terms in words'),
    termsMl: Text(4_000).optional().describe('the same in Malayalam script, for Malayalam questions'),
    periods: z
      .array(
        z
          .object({
            product: Text(200).min(1).describe('a product or product family'),
            period: Text(100).min(1).describe('e.g. "2 years", "6 months on parts"'),
          })
          .loose(),
      )
      .max(500)
      .optional(),
  })
  .loose();

export const StockItem = z
  .object({
    sku: Text(100).min(1).describe('stock-keeping unit'),
    name: Text(200).min(1).describe('product name'),
    aliases: z
      .array(Text(200))
      .max(20)
      .optional()
      .describe('other names customers use, e.g. in Malayalam script or Manglish ("ഏലക്ക", "elakka")'),
    price: Price.optional(),
    inStock: z.boolean().optional().describe('whether it can be ordered now'),
    quantity: z.number().int().min(0).optional().describe('units on hand'),
  })
  .loose();

export const Stock = z
  .object({
    items: z.array(StockItem).max(10_000).optional(),
    updatedAt: Text(40).optional().describe('when the stock list was last exported'),
  })
  .loose();

export const Faq = z
  .object({ q: Text(1_000).min(1).describe('a question'), a: Text(4_000).min(1).describe('its answer') })
  .loose();

export const RemoteConfig = z
  .object({
    brainUrl: Url.optional().describe('where this brain is synchronised from'),
    promptUrl: Url.optional().describe('where the persona prompt is synchronised from'),
    refreshMinutes: z.number().int().min(5).max(10_080).optional().describe('how often to re-sync'),
  })
  .loose();

export const Brain = z
  .object({
    business: Business.describe('business identity'),
    location: Location.optional().describe('where the business is'),
    contact: Contact.optional().describe('how to reach it and when it is open'),
    doctors: z.array(Doctor).max(500).optional().describe('clinics: the doctors (at most 500)'),
    services: z.array(Service).max(2_000).optional().describe('what the business offers (at most 2,000)'),
    booking: Booking.optional().describe('how appointments or orders are booked'),
    warranty: Warranty.optional().describe('appliances: warranty terms and periods'),
    stock: Stock.optional().describe('e-commerce: the stock list (at most 10,000 items)'),
    faq: z
      .array(Faq)
      .max(2_000)
      .optional()
      .describe('questions and answers, used as written (at most 2,000)'),
    remote: RemoteConfig.optional().describe(
      'remote configuration: where brain and prompt are synchronised from',
    ),
  })
  .loose();
export type Brain = z.infer<typeof Brain>;

/** The largest brain stored (the JSON body limit; remote brains are read up to the same size). */
export const BRAIN_MAX_BYTES = 1024 * 1024;
/** The largest persona prompt stored. */
export const PROMPT_MAX_BYTES = 32 * 1024;

/** One documented brain field: its dotted path (`[]` for an array element), type, need and description. */
export interface BrainFieldRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

/** The brain's fields, in schema order, for the docs table (docs/chatbot.md). */
export function brainFieldRows(): BrainFieldRow[] {
  const rows: BrainFieldRow[] = [];
  walk(z.toJSONSchema(Brain, { io: 'input', unrepresentable: 'any' }) as JsonSchema, '', rows);
  return rows;
}

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
}

function walk(s: JsonSchema, prefix: string, rows: BrainFieldRow[]): void {
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push({
      path,
      type: typeName(child),
      required: s.required?.includes(name) ?? false,
      description: child.description ?? '',
    });
    if (child.properties && !isWeekdayMap(child)) walk(child, path, rows);
    if (child.items?.properties) walk(child.items, `${path}[]`, rows);
  }
}

function isWeekdayMap(s: JsonSchema): boolean {
  return Object.keys(s.properties ?? {}).join() === WEEKDAYS.join();
}

function typeName(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeName).join(' or ');
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (isWeekdayMap(s)) {
    const day = Object.values(s.properties ?? {})[0];
    return `weekday → ${day ? typeName(day) : 'value'}`;
  }
  if (s.type === 'array') return `${s.items ? typeName(s.items) : 'value'}[]`;
  if (s.format === 'uri') return 'URL';
  if (s.format === 'email') return 'email';
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}
