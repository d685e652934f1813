import { describe, expect, it } from 'vitest';
import { bareLid, LidCache } from './lid-cache.ts';

describe('LidCache', () => {
  it('keeps mappings and says which are news', () => {
    const c = new LidCache();
    expect(c.set('123456789012345', '14155550100')).toBe(true);
    expect(c.set('123456789012345', '14155550100')).toBe(false);
    expect(c.get('123456789012345')).toBe('14155550100');
    expect(c.set('123456789012345', '14155550199')).toBe(true);
    expect(c.get('123456789012345')).toBe('14155550199');
    expect(c.get('999')).toBeUndefined();
  });

  it('forgets the least recently used entry past its size', () => {
    const c = new LidCache({ maxEntries: 2 });
    c.set('a', '1');
    c.set('b', '2');
    expect(c.get('a')).toBe('1');
    c.set('c', '3');
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual(['1', undefined, '3']);
    expect(c.size).toBe(2);
  });

  it('forgets the least recently used entries past its bytes, and counts the bytes it holds', () => {
    // Each entry here: 15-digit LID + 12-digit phone + 96 = 123 bytes.
    const c = new LidCache({ maxBytes: 3 * 123 });
    c.set('100000000000001', '919800000001');
    c.set('100000000000002', '919800000002');
    c.set('100000000000003', '919800000003');
    expect(c.bytes).toBe(3 * 123);
    c.get('100000000000001');
    c.set('100000000000004', '919800000004');
    expect(c.size).toBe(3);
    expect(c.bytes).toBe(3 * 123);
    expect(c.get('100000000000002')).toBeUndefined();
    expect(c.get('100000000000001')).toBe('919800000001');
    c.set('100000000000001', '91980000001'); // a shorter phone: the bytes follow the value
    expect(c.bytes).toBe(3 * 123 - 1);
  });

  it('forgets an entry after its time to live, and learns it again as news', () => {
    let now = 0;
    const c = new LidCache({ ttlMs: 1000, now: () => now });
    c.set('a', '1');
    now = 999;
    expect(c.get('a')).toBe('1');
    now = 1000;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.set('a', '1')).toBe(true);
  });

  it('reads a LID bare or as a JID', () => {
    expect(bareLid('123456789012345@lid')).toBe('123456789012345');
    expect(bareLid('123456789012345:7@lid')).toBe('123456789012345');
    expect(bareLid('123456789012345')).toBe('123456789012345');
  });
});
