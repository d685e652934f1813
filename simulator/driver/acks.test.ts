import { describe, expect, it } from 'vitest';
import { ACK_MAX_IDS } from '../protocol.ts';
import { AckBatcher } from './acks.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('AckBatcher', () => {
  it('sends the ids handed on together in one request, and those handed on meanwhile in the next', async () => {
    const posts: string[][] = [];
    let release: () => void = () => {};
    const acks = new AckBatcher(async (ids) => {
      posts.push(ids);
      await new Promise<void>((r) => (release = r));
    });
    acks.add('a');
    acks.add('b');
    await tick();
    expect(posts).toEqual([['a', 'b']]);
    acks.add('c');
    acks.add('d');
    await tick();
    expect(posts).toHaveLength(1); // one request in flight
    release();
    await tick();
    expect(posts).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    release();
  });

  it(`splits at ${ACK_MAX_IDS} ids and goes on after a failed request`, async () => {
    const posts: string[][] = [];
    const acks = new AckBatcher(async (ids) => {
      posts.push(ids);
      if (posts.length === 1) throw new Error('network gone');
    });
    for (let i = 0; i <= ACK_MAX_IDS; i++) acks.add(`m${i}`);
    for (let i = 0; i < 5; i++) await tick();
    expect(posts.map((p) => p.length)).toEqual([ACK_MAX_IDS, 1]);
  });
});
