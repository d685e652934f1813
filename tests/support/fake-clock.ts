import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A fake clock for the tests of timing logic (the queue lanes, their local dispatch, record
 * batches): work takes simulated milliseconds, so the order and overlap a test checks never depend
 * on how busy the machine is. Call at the top of a test file; `settled` runs the clock until `p` is done.
 */
export function useFakeClock(): { settled: <T>(p: Promise<T>) => Promise<T> } {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return {
    async settled(p) {
      await vi.runAllTimersAsync();
      return p;
    },
  };
}

/** Waits `ms` of the (fake) clock. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
