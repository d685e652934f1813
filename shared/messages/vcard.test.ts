import { describe, expect, it } from 'vitest';
import { fromVCard, toVCard } from './vcard.ts';

describe('vCards', () => {
  it('writes a card with WhatsApp-linked numbers, escaping what vCard reserves', () => {
    const v = toVCard({
      name: 'Asha; Rao, MD',
      phones: ['919876543210', '14155550100'],
      email: 'asha@example.com',
      org: 'Clinic\nNorth',
    });
    expect(v.split('\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Asha\\; Rao\\, MD',
      'ORG:Clinic\\nNorth',
      'TEL;type=CELL;type=VOICE;waid=919876543210:+919876543210',
      'TEL;type=CELL;type=VOICE;waid=14155550100:+14155550100',
      'EMAIL;type=INTERNET:asha@example.com',
      'END:VCARD',
    ]);
  });

  it('reads back what it writes', () => {
    const card = { name: 'Asha; Rao, MD', phones: ['919876543210'], email: 'a@b.co', org: 'Clinic' };
    expect(fromVCard(toVCard(card))).toEqual(card);
  });

  it("reads phones' cards: groups, folded lines, N without FN, numbers without waid", () => {
    const v = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Rao;Asha;;;',
      'item1.TEL;type=CELL:+91 98765',
      ' 43210',
      'item2.EMAIL:asha@example.com',
      'ORG:Clinic;Front desk',
      'END:VCARD',
    ].join('\r\n');
    expect(fromVCard(v)).toEqual({
      name: 'Asha Rao',
      phones: ['919876543210'],
      email: 'asha@example.com',
      org: 'Clinic',
    });
  });

  it('falls back on the display name, and on nothing', () => {
    expect(fromVCard('BEGIN:VCARD\nTEL:+14155550100\nEND:VCARD', 'Bob')).toEqual({
      name: 'Bob',
      phones: ['14155550100'],
    });
    expect(fromVCard('BEGIN:VCARD\nEND:VCARD')).toBeUndefined();
  });
});
