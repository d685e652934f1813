import { describe, expect, it } from 'vitest';
import { Remembered } from './remembered.ts';

const clock = () => {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

describe('Remembered', () => {
  it('reads a key once within its time to live, then again', async () => {
    const c = clock();
    const cache = new Remembered<number>({ ttlMs: 5_000, now: c.now });
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.get('t1', read)).toBe(1);
    c.advance(4_000);
    expect(await cache.get('t1', read)).toBe(1);
    c.advance(1_001);
    expect(await cache.get('t1', read)).toBe(2);
  });

  it('shares one read between calls made while it runs', async () => {
    const cache = new Remembered<number>({ ttlMs: 5_000 });
    let reads = 0;
    const read = () => new Promise<number>((resolve) => setTimeout(() => resolve(++reads), 5));
    expect(await Promise.all([cache.get('t1', read), cache.get('t1', read)])).toEqual([1, 1]);
  });

  it('keeps no failed read: the next call asks again', async () => {
    const cache = new Remembered<string>({ ttlMs: 5_000 });
    await expect(cache.get('t1', () => Promise.reject(new Error('store down')))).rejects.toThrow(
      'store down',
    );
    expect(await cache.get('t1', async () => 'ok')).toBe('ok');
  });

  it('forgets a key, or every key that matches, at once', async () => {
    const cache = new Remembered<string>({ ttlMs: 5_000 });
    for (const k of ['a\0', 'a\0s1', 'b\0']) await cache.get(k, async () => 'old');
    cache.forgetWhere((k) => k.startsWith('a\0'));
    expect(await cache.get('a\0s1', async () => 'new')).toBe('new');
    expect(await cache.get('b\0', async () => 'new')).toBe('old');
    cache.forget('b\0');
    expect(await cache.get('b\0', async () => 'new')).toBe('new');
  });

  it('holds at most `max` keys, the least recently used going first', async () => {
    const cache = new Remembered<string>({ ttlMs: 5_000, max: 2 });
    await cache.get('a', async () => 'a1');
    await cache.get('b', async () => 'b1');
    await cache.get('a', async () => 'a2');
    await cache.get('c', async () => 'c1');
    expect(await cache.get('a', async () => 'a3')).toBe('a1');
    expect(await cache.get('b', async () => 'b2')).toBe('b2');
  });
});
