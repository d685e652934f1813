import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Pacer } from './pacer.ts';

/** Starts `pacer.wait()` and records the fake-clock time at which it lets the caller through. */
function passAt(pacer: Pacer, passed: number[]): Promise<void> {
  return pacer.wait().then(() => {
    passed.push(Date.now());
  });
}

describe('Pacer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets the first send through at once', async () => {
    const passed: number[] = [];
    await passAt(new Pacer(1000, () => 0.5), passed);
    expect(passed).toEqual([1_000_000]);
  });

  it('spaces a burst one interval apart, in the order it arrived', async () => {
    const pacer = new Pacer(1000, () => 0.5); // 0.5 → no jitter
    const passed: number[] = [];
    const order: number[] = [];
    const all = [0, 1, 2].map((i) => passAt(pacer, passed).then(() => order.push(i)));
    await vi.runAllTimersAsync();
    await Promise.all(all);
    expect(passed).toEqual([1_000_000, 1_001_000, 1_002_000]);
    expect(order).toEqual([0, 1, 2]);
  });

  it('holds a send back until the interval has passed, not longer', async () => {
    const pacer = new Pacer(1000, () => 0.5);
    const passed: number[] = [];
    await passAt(pacer, passed);
    const second = passAt(pacer, passed);
    await vi.advanceTimersByTimeAsync(999);
    expect(passed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(passed).toEqual([1_000_000, 1_001_000]);
  });

  it('does not wait when the last send was longer ago than the interval', async () => {
    const pacer = new Pacer(1000, () => 0.5);
    const passed: number[] = [];
    await passAt(pacer, passed);
    vi.setSystemTime(1_005_000);
    await passAt(pacer, passed);
    expect(passed).toEqual([1_000_000, 1_005_000]);
  });

  it('jitters the interval by at most ±20 %', async () => {
    const low = new Pacer(1000, () => 0);
    const high = new Pacer(1000, () => 1);
    const passed: number[] = [];
    const all = [passAt(low, passed), passAt(low, passed)];
    await vi.runAllTimersAsync();
    await Promise.all(all);
    expect(passed).toEqual([1_000_000, 1_000_800]);

    passed.length = 0;
    vi.setSystemTime(2_000_000);
    const more = [passAt(high, passed), passAt(high, passed)];
    await vi.runAllTimersAsync();
    await Promise.all(more);
    expect(passed).toEqual([2_000_000, 2_001_200]);
  });
});
