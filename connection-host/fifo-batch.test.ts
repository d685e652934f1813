import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fifoBatchHandler } from './fifo-batch.ts';

const Body = z.object({ n: z.string() });

const record = (messageId: string, group?: string, body: string = JSON.stringify({ n: messageId })) =>
  ({
    messageId,
    body,
    attributes: group ? { MessageGroupId: group } : {},
  }) as unknown as SQSRecord;

/** A handler that logs when each record starts and ends, yielding to the event loop in between. */
function recorder(fail: Set<string> = new Set()) {
  const log: string[] = [];
  const handle = async ({ n }: { n: string }) => {
    log.push(`start ${n}`);
    await new Promise((r) => setImmediate(r));
    log.push(`end ${n}`);
    if (fail.has(n)) throw new Error(`${n} failed`);
  };
  return { log, handle };
}

describe('FIFO batch handler', () => {
  it('runs the records of one group in batch order, one after another', async () => {
    const { log, handle } = recorder();
    const out = await fifoBatchHandler(
      Body,
      handle,
    )({ Records: [record('a1', 'A'), record('a2', 'A'), record('a3', 'A')] });
    expect(out.batchItemFailures).toEqual([]);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('runs different groups side by side', async () => {
    const { log, handle } = recorder();
    await fifoBatchHandler(
      Body,
      handle,
    )({
      Records: [record('a1', 'A'), record('a2', 'A'), record('b1', 'B'), record('b2', 'B')],
    });
    // b1 starts before a1 has finished: B did not wait for A.
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(log.filter((l) => l.endsWith('a1') || l.endsWith('a2'))).toEqual([
      'start a1',
      'end a1',
      'start a2',
      'end a2',
    ]);
    expect(log.filter((l) => l.startsWith('end')).sort()).toEqual(['end a1', 'end a2', 'end b1', 'end b2']);
  });

  it('fails the rest of the failed record’s group without running it; other groups carry on', async () => {
    const { log, handle } = recorder(new Set(['a2']));
    const out = await fifoBatchHandler(
      Body,
      handle,
    )({
      Records: [
        record('a1', 'A'),
        record('b1', 'B'),
        record('a2', 'A'),
        record('b2', 'B'),
        record('a3', 'A'),
      ],
    });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'a2' }, { itemIdentifier: 'a3' }]);
    expect(log).not.toContain('start a3');
    expect(log).toContain('end b2');
  });

  it('treats a record that does not parse as a failure of its group', async () => {
    const { log, handle } = recorder();
    const out = await fifoBatchHandler(
      Body,
      handle,
    )({
      Records: [record('a1', 'A', 'not json'), record('a2', 'A'), record('b1', 'B', '{"x":1}')],
    });
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual([]);
  });

  it('gives a record without a MessageGroupId a group of its own', async () => {
    const { log, handle } = recorder(new Set(['x']));
    const out = await fifoBatchHandler(Body, handle)({ Records: [record('x'), record('y')] });
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'x' }]);
    expect(log).toContain('end y');
  });
});
