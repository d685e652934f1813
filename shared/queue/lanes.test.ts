import type { Message } from '@aws-sdk/client-sqs';
import { describe, expect, it, vi } from 'vitest';
import { sleep, useFakeClock } from '../../tests/support/fake-clock.ts';
import { eachAlone, Lanes } from './lanes.ts';

const { settled } = useFakeClock();

describe('Lanes', () => {
  it('retries a failed message before the lane moves on, so later messages never overtake it', async () => {
    const seen: string[] = [];
    let failB = 2;
    const lanes = new Lanes(
      100,
      1,
      eachAlone(async (batch) =>
        batch.filter((m) => {
          seen.push(m.MessageId ?? '');
          return m.MessageId === 'b' && failB-- > 0;
        }),
      ),
    );
    for (const id of ['a', 'b', 'c']) lanes.add('session', { MessageId: id });
    await settled(lanes.idle());
    expect(seen).toEqual(['a', 'b', 'b', 'b', 'c']);
  });

  it('leaves a message that keeps failing to the queue after its retries and goes on', async () => {
    const seen: string[] = [];
    const lanes = new Lanes(
      100,
      10,
      eachAlone(async (batch) => {
        seen.push(...batch.map((m) => m.MessageId ?? ''));
        return batch.filter((m) => m.MessageId === 'x');
      }),
    );
    lanes.add('s', { MessageId: 'x' });
    lanes.add('s', { MessageId: 'y' });
    await settled(lanes.idle());
    expect(seen).toEqual(['x', 'y', 'x', 'x', 'x']);
  });

  it('takes a handler that throws as the whole batch failed, and retries it', async () => {
    let calls = 0;
    const lanes = new Lanes(
      100,
      10,
      eachAlone(async (batch: Message[]) => {
        calls++;
        if (calls === 1) throw new Error('store down');
        return batch.slice(0, 0);
      }),
    );
    lanes.add('s', { MessageId: 'a' });
    await settled(lanes.idle());
    expect(calls).toBe(2);
  });

  it('room() waits while `max` messages are held and answers once a batch is done', async () => {
    const lanes = new Lanes(
      2,
      10,
      eachAlone(async () => {
        await sleep(10);
        return [];
      }),
    );
    lanes.add('a', { MessageId: 'a1' });
    lanes.add('b', { MessageId: 'b1' });
    let roomy = false;
    const waiting = lanes.room().then(() => {
      roomy = true;
    });
    await vi.advanceTimersByTimeAsync(5);
    expect(roomy).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    await waiting;
    expect(roomy).toBe(true);
    await settled(lanes.idle());
  });
});
