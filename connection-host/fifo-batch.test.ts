import type { Message } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fifoBatchHandler } from './fifo-batch.ts';

const Body = z.object({ n: z.string() });

const record = (
  MessageId: string,
  group?: string,
  Body: string = JSON.stringify({ n: MessageId }),
): Message => ({
  MessageId,
  Body,
  Attributes: group ? { MessageGroupId: group } : {},
});
const ids = (messages: Message[]) => messages.map((m) => m.MessageId);

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
    )([record('a1', 'A'), record('a2', 'A'), record('a3', 'A')]);
    expect(out).toEqual([]);
    expect(log).toEqual(['start a1', 'end a1', 'start a2', 'end a2', 'start a3', 'end a3']);
  });

  it('runs different groups side by side', async () => {
    const { log, handle } = recorder();
    await fifoBatchHandler(
      Body,
      handle,
    )([record('a1', 'A'), record('a2', 'A'), record('b1', 'B'), record('b2', 'B')]);
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
    )([record('a1', 'A'), record('b1', 'B'), record('a2', 'A'), record('b2', 'B'), record('a3', 'A')]);
    expect(ids(out)).toEqual(['a2', 'a3']);
    expect(log).not.toContain('start a3');
    expect(log).toContain('end b2');
  });

  it('treats a record that does not parse as a failure of its group', async () => {
    const { log, handle } = recorder();
    const out = await fifoBatchHandler(
      Body,
      handle,
    )([record('a1', 'A', 'not json'), record('a2', 'A'), record('b1', 'B', '{"x":1}')]);
    expect(ids(out).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual([]);
  });

  it('gives a record without a MessageGroupId a group of its own', async () => {
    const { log, handle } = recorder(new Set(['x']));
    const out = await fifoBatchHandler(Body, handle)([record('x'), record('y')]);
    expect(ids(out)).toEqual(['x']);
    expect(log).toContain('end y');
  });
});
