import { describe, expect, it } from 'vitest';
import { brainFieldTable, documentedTable } from '../../scripts/docs/brain-fields.ts';
import { Brain, brainFieldRows } from './brain-schema.ts';

describe('Brain schema', () => {
  it('needs only business.name and keeps keys it does not know, at every level', () => {
    expect(Brain.safeParse({}).error?.issues[0]?.path).toEqual(['business']);
    expect(Brain.safeParse({ business: {} }).error?.issues[0]?.path).toEqual(['business', 'name']);
    const mine = { business: { name: 'X', vat: 'GB1' }, loyalty: { tiers: 3 }, contact: { fax: '1' } };
    expect(Brain.parse(mine)).toEqual(mine);
  });

  it('checks hours, slots, URLs and prices', () => {
    const bad = (brain: object) =>
      Brain.safeParse({ business: { name: 'X' }, ...brain }).error?.issues[0]?.path;
    expect(bad({ contact: { hours: { monday: { open: '9am' } } } })).toEqual([
      'contact',
      'hours',
      'monday',
      'open',
    ]);
    expect(bad({ doctors: [{ name: 'A', availability: { friday: ['09:00 - 12:00'] } }] })).toEqual([
      'doctors',
      0,
      'availability',
      'friday',
      0,
    ]);
    expect(bad({ location: { mapUrl: 'not a url' } })).toEqual(['location', 'mapUrl']);
    expect(bad({ services: [{ name: 'S', price: -1 }] })).toEqual(['services', 0, 'price']);
    expect(
      Brain.safeParse({
        business: { name: 'X' },
        contact: { hours: 'Mon-Sat 9 to 6' },
        doctors: [{ name: 'A', availability: { monday: ['09:00-12:00', '17:30-24:00'] }, fee: 'free' }],
        services: [{ name: 'S', price: 'from 500', duration: 30 }],
      }).success,
    ).toBe(true);
  });

  it('lists every documented field once, nested lists included', () => {
    const paths = brainFieldRows().map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        'business.name',
        'doctors[].availability',
        'stock.items[].sku',
        'remote.brainUrl',
      ]),
    );
    expect(brainFieldRows().find((r) => r.path === 'business.name')?.required).toBe(true);
  });

  it('docs/chatbot.md shows the table generated from the schema (npx tsx scripts/docs/brain-fields.ts)', () => {
    expect(documentedTable()).toBe(brainFieldTable());
  });
});
