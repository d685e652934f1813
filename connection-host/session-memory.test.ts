import { describe, expect, it } from 'vitest';
import {
  approxBytes,
  byteCache,
  recentSet,
  SESSION_CACHE_BUDGET,
  SESSION_CACHE_BYTES,
} from './session-memory.ts';

describe('approxBytes', () => {
  it('counts bytes, not entries: byte arrays by length, strings by characters', () => {
    expect(approxBytes(new Uint8Array(1000))).toBe(1096);
    expect(approxBytes(Buffer.alloc(32))).toBe(128);
    expect(approxBytes('abcd')).toBe(20);
    expect(approxBytes('ಅಆ')).toBe(20); // two-byte characters
    // A Signal key pair: two 32-byte keys and their names.
    const pair = { public: Buffer.alloc(32), private: Buffer.alloc(32) };
    expect(approxBytes(pair)).toBe(24 + (8 + 6 + 128) + (8 + 7 + 128));
    // Ten small values weigh less than one large one.
    expect(approxBytes(Array.from({ length: 10 }, () => 'x'))).toBeLessThan(approxBytes('x'.repeat(1000)));
  });

  it('walks arrays, maps and sets, and stops at a depth', () => {
    expect(approxBytes([1, 'ab'])).toBe(16 + 16 + 16 + 18);
    expect(approxBytes(new Map([['k', 1]]))).toBe(32 + 24 + 17 + 16);
    expect(approxBytes(new Set(['k']))).toBe(32 + 16 + 17);
    let deep: object = {};
    for (let i = 0; i < 50; i++) deep = { d: deep };
    expect(approxBytes(deep)).toBeLessThan(50 * 40);
  });
});

describe('byteCache', () => {
  it('evicts the least recently used entries once it holds more bytes than its budget', () => {
    const c = byteCache<string, Uint8Array>(3000);
    const kb = () => new Uint8Array(900); // ~1,010 bytes with key and wrapper
    c.set('a', kb());
    c.set('b', kb());
    expect(c.size).toBe(2);
    c.get('a'); // used: b is now the oldest
    c.set('c', kb());
    expect(c.calculatedSize).toBeLessThanOrEqual(3000);
    expect(c.has('b')).toBe(false);
    expect(c.has('a') && c.has('c')).toBe(true);
  });

  it('holds many small entries in the space of a few large ones', () => {
    const c = byteCache<string, string>(10_000);
    for (let i = 0; i < 1000; i++) c.set(`k${i}`, 'v');
    expect(c.calculatedSize).toBeLessThanOrEqual(10_000);
    expect(c.size).toBeGreaterThan(100);
    c.set('big', 'x'.repeat(6000));
    expect(c.calculatedSize).toBeLessThanOrEqual(10_000);
    expect(c.has('big')).toBe(true);
    expect(c.size).toBeLessThan(120);
  });

  it('keeps no entry larger than the whole budget, and drops the older value under that key', () => {
    const c = byteCache<string, string>(1000);
    c.set('k', 'small');
    c.set('k', 'x'.repeat(2000));
    expect(c.has('k')).toBe(false);
    expect(c.calculatedSize).toBe(0);
  });

  it('lets entries expire after their time to live', () => {
    let now = 5000;
    const c = byteCache<string, string>(1000, { ttlMs: 100, now: () => now });
    c.set('k', 'v');
    now = 5099;
    expect(c.get('k')).toBe('v');
    now = 5200;
    expect(c.get('k')).toBeUndefined();
    expect(c.calculatedSize).toBe(0);
  });
});

describe('recentSet', () => {
  it('forgets the oldest strings past its bytes', () => {
    const ids = recentSet(2000);
    for (let i = 0; i < 200; i++) ids.add(`3EB0${String(i).padStart(16, '0')}`);
    expect(ids.bytes).toBeLessThanOrEqual(2000);
    expect(ids.has('3EB00000000000000199')).toBe(true);
    expect(ids.has('3EB00000000000000000')).toBe(false);
    expect([...ids.values()].length).toBe(ids.size);
  });
});

describe('the per-session budget', () => {
  it('is the sum of the caches it names, under 1 MiB', () => {
    const sum = Object.values(SESSION_CACHE_BYTES).reduce((a, b) => a + b, 0);
    expect(SESSION_CACHE_BUDGET).toBe(sum);
    expect(SESSION_CACHE_BUDGET).toBe(736 * 1024);
  });
});
