import { describe, expect, it, vi } from 'vitest';
import { Lanes } from '#shared/queue/lanes';
import { sleep, useFakeClock } from '../../tests/support/fake-clock.ts';
import { combinedLanes } from './combined-lanes.ts';

const { settled } = useFakeClock();

describe('combinedLanes', () => {
  it('combined: lanes ready together go in one call, each lane still one batch at a time and in order', async () => {
    const calls: string[][] = [];
    let inFlight = new Set<string>();
    let overlap = false;
    let failOnce = true;
    const lanes = new Lanes(
      100,
      2,
      combinedLanes(1)(async (batch) => {
        const ids = batch.map((m) => m.MessageId ?? '');
        calls.push(ids);
        const laneOf = (id: string) => id.charAt(0);
        for (const id of ids) if (inFlight.has(laneOf(id))) overlap = true;
        inFlight = new Set([...inFlight, ...ids.map(laneOf)]);
        await sleep(5);
        for (const id of ids) inFlight.delete(laneOf(id));
        // One message of lane b fails once: only lane b retries it, before its next batch.
        const failed = failOnce ? batch.filter((m) => m.MessageId === 'b1') : [];
        if (failed.length) failOnce = false;
        return failed;
      }),
    );
    for (const id of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'b3']) lanes.add(id.charAt(0), { MessageId: id });
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
      combinedLanes(1)(async (batch) => {
        calls.push(batch.map((m) => m.MessageId ?? ''));
        await sleep(30);
        return [];
      }),
    );
    lanes.add('a', { MessageId: 'a1' });
    for (const id of ['b1', 'c1', 'd1']) {
      await vi.advanceTimersByTimeAsync(5);
      lanes.add(id.charAt(0), { MessageId: id });
    }
    await settled(lanes.idle());
    expect(calls).toEqual([['a1'], ['b1', 'c1', 'd1']]);
  });

  it('combined: free() waits while every call is under way and answers once one ends', async () => {
    let release: () => void = () => {};
    const lanes = new Lanes(
      100,
      10,
      combinedLanes(1)(() => new Promise((r) => (release = () => r([])))),
    );
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
      combinedLanes(1, (key) => key.startsWith('slow'))(async (batch) => {
        const ids = batch.map((m) => m.MessageId ?? '');
        calls.push(ids);
        if (ids.includes('slow1')) await new Promise<void>((r) => (releaseSlow = r));
        else await sleep(5);
        return [];
      }),
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
