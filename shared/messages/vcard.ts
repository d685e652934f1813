import { must } from '../must.ts';
import { digitsOf } from '../phone/number.ts';
import type { ContactCard } from './content.ts';

/**
 * Contact cards ↔ vCard 3.0, the form the network carries them in (and every phone reads). A number
 * gets the `waid` parameter WhatsApp uses to link it to its account.
 */

/** A vCard text value: backslash, comma, semicolon and line breaks escaped (RFC 2426 §4). */
const escapeText = (v: string) => v.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
const unescapeText = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([\\,;])/g, '$1');

export function toVCard(c: ContactCard): string {
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${escapeText(c.name)}`,
    ...(c.org ? [`ORG:${escapeText(c.org)}`] : []),
    ...c.phones.map((d) => `TEL;type=CELL;type=VOICE;waid=${d}:+${d}`),
    ...(c.email ? [`EMAIL;type=INTERNET:${escapeText(c.email)}`] : []),
    'END:VCARD',
  ].join('\n');
}

/**
 * The card a vCard describes, as far as it says: the name (`FN`, else the `N` parts), the numbers
 * (the `waid` when given, else the written number's digits), the first e-mail and organisation.
 * Undefined when it names nobody and no number.
 */
export function fromVCard(vcard: string, displayName?: string): ContactCard | undefined {
  // Folded lines (a break then a space or tab) continue the previous line.
  const lines = vcard.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  let name: string | undefined;
  let structured: string | undefined;
  let email: string | undefined;
  let org: string | undefined;
  const phones: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const head = line.slice(0, colon);
    const value = line.slice(colon + 1);
    // A property may carry a group prefix (`item1.TEL`).
    const [prop, ...params] = head.split(';');
    switch (prop?.replace(/^[^.]*\./, '').toUpperCase()) {
      case 'FN':
        name ??= unescapeText(value).trim() || undefined;
        break;
      case 'N':
        structured ??= value.split(';').slice(0, 2).reverse().map(unescapeText).join(' ').trim() || undefined;
        break;
      case 'TEL': {
        const waid = params.find((p) => p.toLowerCase().startsWith('waid='))?.slice(5);
        const digits = digitsOf(waid ?? value);
        if (digits && !phones.includes(digits)) phones.push(digits);
        break;
      }
      case 'EMAIL':
        email ??= unescapeText(value).trim() || undefined;
        break;
      case 'ORG':
        org ??= unescapeText(value.split(';')[0] ?? '').trim() || undefined;
        break;
    }
  }
  const who = name ?? structured ?? displayName?.trim();
  if (!who && phones.length === 0) return undefined;
  return {
    name: who || must(phones[0], 'a phone number when the card has no name'),
    phones,
    ...(email ? { email } : {}),
    ...(org ? { org } : {}),
  };
}
