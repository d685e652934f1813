import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withinWindow } from './batching.ts';

describe('withinWindow', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands what arrives within the window to one flush, in order', () => {
    const flushed: number[][] = [];
    const add = withinWindow<number>(10, (items) => flushed.push(items));
    add(1);
    vi.advanceTimersByTime(4);
    add(2);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(6);
    expect(flushed).toEqual([[1, 2]]);
    add(3);
    vi.advanceTimersByTime(10);
    expect(flushed).toEqual([[1, 2], [3]]);
  });

  it('flushes at once when the lot is full, and the window starts again', () => {
    const flushed: number[][] = [];
    const add = withinWindow<number>(
      10,
      (items) => flushed.push(items),
      (items) => items.length >= 3,
    );
    for (const n of [1, 2, 3, 4]) add(n);
    expect(flushed).toEqual([[1, 2, 3]]);
    vi.advanceTimersByTime(10);
    expect(flushed).toEqual([[1, 2, 3], [4]]);
    vi.advanceTimersByTime(100);
    expect(flushed).toHaveLength(2);
  });
});
