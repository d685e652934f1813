import { describe, expect, it } from 'vitest';
import { creditsFor } from './credits.ts';

describe('creditsFor', () => {
  it('counts 1,000 input tokens as one credit', () => {
    expect(creditsFor({ input: 1000, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(1);
  });

  it('weighs cache reads at 10 %, cache writes at 125 % and output at 5×', () => {
    expect(creditsFor({ input: 0, output: 0, cacheRead: 10_000, cacheWrite: 0 })).toBe(1);
    expect(creditsFor({ input: 0, output: 0, cacheRead: 0, cacheWrite: 800 })).toBe(1);
    expect(creditsFor({ input: 0, output: 200, cacheRead: 0, cacheWrite: 0 })).toBe(1);
    expect(creditsFor({ input: 120, output: 40, cacheRead: 3000, cacheWrite: 400 })).toBe(1.12);
  });

  it('answers thousandths, without float noise', () => {
    expect(creditsFor({ input: 1, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(0.001);
    expect(creditsFor({ input: 0, output: 0, cacheRead: 3, cacheWrite: 0 })).toBe(0);
    expect(creditsFor({ input: 333, output: 7, cacheRead: 7, cacheWrite: 3 })).toBe(0.372);
  });

  it('is zero for no model call (rules, intents)', () => {
    expect(creditsFor(undefined)).toBe(0);
    expect(creditsFor({})).toBe(0);
    expect(creditsFor({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 })).toBe(0);
  });
});
