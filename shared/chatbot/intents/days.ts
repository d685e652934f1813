import type { Brain } from '../brain-schema.ts';
import { normalise } from './normalise.ts';
import { matchForm } from './transliterate.ts';
import { keysOf } from './word-keys.ts';

/*
 * Weekday names as people type them: the matcher leaves them out (they say when, not what), and the
 * engine defers a message that names a day the brain's hours say is closed.
 */

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
