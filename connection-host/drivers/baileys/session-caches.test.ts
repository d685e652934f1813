import { describe, expect, it } from 'vitest';
import { approxBytes } from '../../session-memory.ts';
import { baileysCaches, byteCacheStore } from './session-caches.ts';

describe("Baileys' caches, bounded by bytes", () => {
  it('answers the CacheStore calls Baileys makes, falsy values included', async () => {
    const c = byteCacheStore(10_000);
    c.set('retry:1', 0);
    expect(c.get<number>('retry:1')).toBe(0);
    c.set('retry:1', 2);
    expect(c.get<number>('retry:1')).toBe(2);
    c.del('retry:1');
    expect(c.get('retry:1')).toBeUndefined();
    c.mset([
      { key: '14155550100', value: [{ user: '14155550100', device: 0 }] },
      { key: '14155550101', value: [] },
    ]);
    expect(await c.mget(['14155550100', '14155550101', 'none'])).toEqual({
      '14155550100': [{ user: '14155550100', device: 0 }],
      '14155550101': [],
      none: undefined,
    });
    c.mdel(['14155550100']);
    c.flushAll();
    expect(c.bytes).toBe(0);
  });

  it('evicts device lists once they exceed the budget, by bytes', () => {
    const devices = (u: string) => Array.from({ length: 5 }, (_, device) => ({ user: u, device }));
    const one = approxBytes({ v: devices('14155550100') }) + approxBytes('14155550100');
    const c = byteCacheStore(10 * one);
    for (let i = 0; i < 100; i++) c.set(`141555501${String(i).padStart(2, '0')}`, devices(`141555501${i}`));
    expect(c.bytes).toBeLessThanOrEqual(10 * one);
    expect(c.get('14155550100')).toBeUndefined(); // the oldest went first
    expect(c.get('14155550199')).toHaveLength(5);
  });

  it('gives every socket caches of its own', () => {
    const a = baileysCaches();
    const b = baileysCaches();
    a.userDevicesCache.set('x', [1]);
    expect(b.userDevicesCache.get('x')).toBeUndefined();
    expect(Object.keys(a).sort()).toEqual(['callOfferCache', 'msgRetryCounterCache', 'userDevicesCache']);
  });
});
