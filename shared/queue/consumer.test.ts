import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sleep, useFakeClock } from '../../tests/support/fake-clock.ts';
import { processBatch, processRecords } from './consumer.ts';

const Body = z.object({ lane: z.string(), n: z.number() });
type Body = z.infer<typeof Body>;
const rec = (id: string, body: unknown) => ({ messageId: id, body: JSON.stringify(body) }) as SQSRecord;
const { settled } = useFakeClock();

describe('processRecords with groupBy', () => {
  it('runs a group in order, groups side by side, and reports failures per record', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const records = [
      rec('1', { lane: 'a', n: 1 }),
      rec('2', { lane: 'b', n: 1 }),
      rec('3', { lane: 'a', n: 2 }),
      rec('4', { lane: 'b', n: 2 }),
      rec('5', { lane: 'a', n: 3 }),
      rec('6', 'not an object'),
    ];
    const out = await settled(
      processRecords(
        records,
        Body,
        async (b: Body) => {
          running++;
          most = Math.max(most, running);
          await sleep(b.lane === 'a' ? 15 : 5);
          running--;
          log.push(`${b.lane}${b.n}`);
          if (b.lane === 'b' && b.n === 2) throw new Error('boom');
        },
        { groupBy: (b) => b.lane },
      ),
    );
    expect(log.filter((l) => l.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
    expect(log.filter((l) => l.startsWith('b'))).toEqual(['b1', 'b2']);
    expect(most).toBe(2);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['4', '6']);
  });

  it('hands a group of several records to handleGroup in order and takes its per-record answers', async () => {
    const groups: number[][] = [];
    const singles: number[] = [];
    const out = await processRecords(
      [rec('1', { lane: 'a', n: 1 }), rec('2', { lane: 'c', n: 9 }), rec('3', { lane: 'a', n: 2 })],
      Body,
      async (b: Body) => {
        singles.push(b.n);
      },
      {
        groupBy: (b) => b.lane,
        handleGroup: async (items) => {
          groups.push(items.map((i) => i.body.n));
          return items.map((i) => i.body.n !== 2);
        },
      },
    );
    expect(groups).toEqual([[1, 2]]);
    expect(singles).toEqual([9]);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: '3' }]);
  });

  it('fails the whole group when handleGroup throws', async () => {
    const out = await processRecords(
      [rec('1', { lane: 'a', n: 1 }), rec('2', { lane: 'a', n: 2 })],
      Body,
      async () => {},
      {
        groupBy: (b) => b.lane,
        handleGroup: async () => {
          throw new Error('store down');
        },
      },
    );
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['1', '2']);
  });
});

describe('processBatch', () => {
  it('hands every parsed record over at once, in order, and reports per record', async () => {
    const got: Body[][] = [];
    const out = await processBatch(
      [
        rec('1', { lane: 'a', n: 1 }),
        rec('2', 'not an object'),
        rec('3', { lane: 'b', n: 1 }),
        rec('4', { lane: 'a', n: 2 }),
      ],
      Body,
      async (items) => {
        got.push(items.map((i) => i.body));
        return items.map((i) => i.body.n === 1);
      },
    );
    expect(got).toEqual([
      [
        { lane: 'a', n: 1 },
        { lane: 'b', n: 1 },
        { lane: 'a', n: 2 },
      ],
    ]);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['2', '4']);
  });
});
