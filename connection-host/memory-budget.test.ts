import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '#shared/log/logger';
import { snapshot, takeEmf } from '#shared/metrics/metrics';
import { MemoryBudget } from './memory-budget.ts';

const MB = 2 ** 20;

describe('MemoryBudget', () => {
  it('is full from the budget on, says so once per crossing, and counts every heartbeat past it', () => {
    takeEmf('reset', 'reset');
    const log = { warn: vi.fn(), info: vi.fn() } as unknown as Logger;
    let rss = 900 * MB;
    const budget = new MemoryBudget(1000, log, () => rss);
    expect(budget.beat()).toBe(false);
    rss = 1000 * MB;
    expect(budget.beat()).toBe(true);
    expect(budget.beat()).toBe(true);
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(snapshot().counts.hostFullBeats).toBe(2);
    rss = 500 * MB;
    expect(budget.full()).toBe(false);
    expect(log.info).toHaveBeenCalledTimes(1);
  });

  it('without a budget is never full', () => {
    const budget = new MemoryBudget(undefined, {} as Logger, () => 10_000 * MB);
    expect(budget.full()).toBe(false);
  });
});
