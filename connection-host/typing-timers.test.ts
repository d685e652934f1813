import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelTyping, pauseTypingAfter } from './typing-timers.ts';

describe('typing timers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pauses after the time is up', async () => {
    const pause = vi.fn(async () => {});
    pauseTypingAfter('s1', '919800000001', 25_000, pause);
    await vi.advanceTimersByTimeAsync(24_999);
    expect(pause).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(pause).toHaveBeenCalledOnce();
  });

  it('does not pause when a message went to the chat first, and only that chat is affected', async () => {
    const replied = vi.fn(async () => {});
    const other = vi.fn(async () => {});
    pauseTypingAfter('s1', '919800000001', 25_000, replied);
    pauseTypingAfter('s1', '919800000002', 25_000, other);
    await vi.advanceTimersByTimeAsync(5_000);
    cancelTyping('s1', '919800000001');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(replied).not.toHaveBeenCalled();
    expect(other).toHaveBeenCalledOnce();
  });

  it('a new indicator restarts the time, and a failed pause is swallowed', async () => {
    const first = vi.fn(async () => {});
    const second = vi.fn(async () => {
      throw new Error('link closed');
    });
    pauseTypingAfter('s2', 'c', 25_000, first);
    await vi.advanceTimersByTimeAsync(20_000);
    pauseTypingAfter('s2', 'c', 25_000, second);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(second).toHaveBeenCalledOnce();
  });
});
