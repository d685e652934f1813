import { describe, expect, it } from 'vitest';
import { INDEX_SHARDS, mergeDescending, mergeSorted, shardOf } from './shards.ts';

describe('index shards', () => {
  it('puts a session in one stable shard, and spreads many sessions evenly', () => {
    expect(shardOf('qr_123')).toBe(shardOf('qr_123'));
    const counts = new Array(INDEX_SHARDS).fill(0);
    for (let i = 0; i < 1000; i++) counts[shardOf(`qr_${1795656295962 + i * 7919}_${i.toString(16)}`)]++;
    // 1,000 sessions over 16 shards: about 62 each, none more than twice that.
    expect(Math.max(...counts)).toBeLessThan(125);
    expect(Math.min(...counts)).toBeGreaterThan(20);
  });

  it('merges sorted lists in either order', () => {
    const k = (s: string) => s;
    expect(mergeSorted([['a', 'c'], ['b', 'd'], []], k, false)).toEqual(['a', 'b', 'c', 'd']);
    expect(
      mergeSorted(
        [
          ['c', 'a'],
          ['d', 'b'],
        ],
        k,
        true,
      ),
    ).toEqual(['d', 'c', 'b', 'a']);
  });

  it('merges descending sources lazily, reading no further than asked', async () => {
    const read: string[] = [];
    async function* source(keys: string[]) {
      for (const key of keys) {
        read.push(key);
        yield key;
      }
    }
    const merged = mergeDescending([source(['9', '5', '1']), source(['8', '7', '2']), source([])], (s) => s);
    const out: string[] = [];
    for await (const k of merged) {
      out.push(k);
      if (out.length === 4) break;
    }
    expect(out).toEqual(['9', '8', '7', '5']);
    // Only what was needed: '2' is a head, the first source's '1' was never read.
    expect(read.sort()).toEqual(['2', '5', '7', '8', '9']);
  });
});
