import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Lanes, processBatch, processRecords } from './consumer.ts';

const Body = z.object({ lane: z.string(), n: z.number() });
type Body = z.infer<typeof Body>;
const rec = (id: string, body: unknown) => ({ messageId: id, body: JSON.stringify(body) }) as SQSRecord;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A fake clock: the handlers' "work" takes simulated milliseconds, so the order and overlap these
// tests check never depend on how busy the machine is. `settled` runs the clock until `p` is done.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
async function settled<T>(p: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return p;
}

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

describe('Lanes', () => {
  it('retries a failed message before the lane moves on, so later messages never overtake it', async () => {
    const seen: string[] = [];
    let failB = 2;
    const lanes = new Lanes(100, 1, async (batch) => {
      const failed = batch.filter((m) => {
        seen.push(m.MessageId ?? '');
        return m.MessageId === 'b' && failB-- > 0;
      });
      return failed;
    });
    for (const id of ['a', 'b', 'c']) lanes.add('session', { MessageId: id });
    await settled(lanes.idle());
    expect(seen).toEqual(['a', 'b', 'b', 'b', 'c']);
  });

  it('leaves a message that keeps failing to the queue after its retries and goes on', async () => {
    const seen: string[] = [];
    const lanes = new Lanes(100, 10, async (batch) => {
      seen.push(...batch.map((m) => m.MessageId ?? ''));
      return batch.filter((m) => m.MessageId === 'x');
    });
    lanes.add('s', { MessageId: 'x' });
    lanes.add('s', { MessageId: 'y' });
    await settled(lanes.idle());
    expect(seen).toEqual(['x', 'y', 'x', 'x', 'x']);
  });

  it('combined: lanes ready together go in one call, each lane still one batch at a time and in order', async () => {
    const calls: string[][] = [];
    let inFlight = new Set<string>();
    let overlap = false;
    let failOnce = true;
    const lanes = new Lanes(
      100,
      2,
      async (batch) => {
        const ids = batch.map((m) => m.MessageId ?? '');
        calls.push(ids);
        const laneOf = (id: string) => id[0]!;
        for (const id of ids) if (inFlight.has(laneOf(id))) overlap = true;
        inFlight = new Set([...inFlight, ...ids.map(laneOf)]);
        await sleep(5);
        for (const id of ids) inFlight.delete(laneOf(id));
        // One message of lane b fails once: only lane b retries it, before its next batch.
        const failed = failOnce ? batch.filter((m) => m.MessageId === 'b1') : [];
        if (failed.length) failOnce = false;
        return failed;
      },
      1,
    );
    for (const id of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'b3']) lanes.add(id[0]!, { MessageId: id });
    await settled(lanes.idle());
    // The first call has the three lanes' first batches; a lane never has two batches in flight.
    expect(calls[0]).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
    expect(overlap).toBe(false);
    const order = (lane: string) => calls.flat().filter((id) => id[0] === lane);
    expect(order('a')).toEqual(['a1', 'a2', 'a3']);
    expect(order('b')).toEqual(['b1', 'b2', 'b1', 'b3']);
    expect(calls.length).toBeLessThan(7);
  });

  it('combined: lanes that become ready while a call runs wait for it and go together in the next', async () => {
    const calls: string[][] = [];
    const lanes = new Lanes(
      100,
      10,
      async (batch) => {
        calls.push(batch.map((m) => m.MessageId ?? ''));
        await sleep(30);
        return [];
      },
      1,
    );
    lanes.add('a', { MessageId: 'a1' });
    for (const id of ['b1', 'c1', 'd1']) {
      await vi.advanceTimersByTimeAsync(5);
      lanes.add(id[0]!, { MessageId: id });
    }
    await settled(lanes.idle());
    expect(calls).toEqual([['a1'], ['b1', 'c1', 'd1']]);
  });

  it('combined: free() waits while every call is under way and answers once one ends', async () => {
    let release: () => void = () => {};
    const lanes = new Lanes(100, 10, () => new Promise((r) => (release = () => r([]))), 1);
    await lanes.free(); // nothing under way
    lanes.add('a', { MessageId: 'a1' });
    await vi.advanceTimersByTimeAsync(5); // the call starts
    let freed = false;
    const waiting = lanes.free().then(() => {
      freed = true;
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(freed).toBe(false);
    release();
    await waiting;
    expect(freed).toBe(true);
    await settled(lanes.idle());
  });

  it('combined: an isolated lane runs on its own; the others neither wait for it nor count it as a call', async () => {
    const calls: string[][] = [];
    let releaseSlow: () => void = () => {};
    const lanes = new Lanes(
      100,
      10,
      async (batch) => {
        const ids = batch.map((m) => m.MessageId ?? '');
        calls.push(ids);
        if (ids.includes('slow1')) await new Promise<void>((r) => (releaseSlow = r));
        else await sleep(5);
        return [];
      },
      1,
      (key) => key.startsWith('slow'),
    );
    lanes.add('slow', { MessageId: 'slow1' });
    lanes.add('a', { MessageId: 'a1' });
    lanes.add('b', { MessageId: 'b1' });
    await vi.advanceTimersByTimeAsync(20);
    // The slow lane's call is still under way, yet the others went together and are done.
    expect(calls).toEqual([['slow1'], ['a1', 'b1']]);
    await settled(lanes.free());
    lanes.add('c', { MessageId: 'c1' });
    await vi.advanceTimersByTimeAsync(20);
    expect(calls.at(-1)).toEqual(['c1']);
    releaseSlow();
    await settled(lanes.idle());
  });
});
