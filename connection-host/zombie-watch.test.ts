import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DriverLink } from './drivers/driver.ts';
import { ZombieWatch } from './zombie-watch.ts';

describe('ZombieWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an answered probe counts as life and leaves no timer behind', async () => {
    const onSilent = vi.fn(async () => {});
    const link = { probe: vi.fn(async () => {}) } as unknown as DriverLink;
    const watch = new ZombieWatch(60_000, () => link, onSilent);
    await watch.check(true);
    expect(link.probe).toHaveBeenCalledOnce();
    expect(onSilent).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a probe unanswered for 10 s hands the link to onSilent', async () => {
    const onSilent = vi.fn(async (_err: Error) => {});
    const link = { probe: () => new Promise<void>(() => {}) } as unknown as DriverLink;
    const watch = new ZombieWatch(60_000, () => link, onSilent);
    const checked = watch.check(true);
    await vi.advanceTimersByTimeAsync(10_000);
    await checked;
    expect(onSilent).toHaveBeenCalledOnce();
    expect(onSilent.mock.calls[0]?.[0].message).toBe('probe timed out');
  });

  it('a link quiet for less than the idle time is not probed', async () => {
    const link = { probe: vi.fn(async () => {}) } as unknown as DriverLink;
    const watch = new ZombieWatch(
      60_000,
      () => link,
      async () => {},
    );
    await watch.check();
    expect(link.probe).not.toHaveBeenCalled();
  });
});
