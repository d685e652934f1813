import { describe, expect, it } from 'vitest';
import { must } from '../must.ts';
import {
  isSlow,
  markSlow,
  noteAnswer,
  requeueDelayMs,
  SLOW_ANSWER_MS,
  SLOW_HOLD_MS,
  SLOW_REQUEUE_MS,
  SLOW_STRIKES,
  SLOW_TENANT_IN_FLIGHT,
  takeSlot,
} from './slow-tenants.ts';

describe('slow tenants', () => {
  it('answers at or over the threshold mark their tenant slow for a while, from the third on; faster ones do not', () => {
    for (let i = 0; i < SLOW_STRIKES; i++) noteAnswer('fast', SLOW_ANSWER_MS - 1);
    expect(isSlow('fast')).toBe(false);
    for (let i = 1; i < SLOW_STRIKES; i++) noteAnswer('slow', SLOW_ANSWER_MS);
    // One stall of a busy machine (or two) is not yet a slow receiver.
    expect(isSlow('slow')).toBe(false);
    noteAnswer('slow', SLOW_ANSWER_MS);
    expect(isSlow('slow')).toBe(true);
    expect(isSlow('slow', Date.now() + SLOW_HOLD_MS + 1)).toBe(false);
    // Expired: forgotten until slow answers come again.
    expect(isSlow('slow')).toBe(false);
  });

  it('strikes further apart than the hold time do not add up', () => {
    const t0 = 5_000_000;
    markSlow('spread', t0);
    markSlow('spread', t0 + SLOW_HOLD_MS + 1);
    markSlow('spread', t0 + 2 * SLOW_HOLD_MS + 2);
    expect(isSlow('spread', t0 + 2 * SLOW_HOLD_MS + 3)).toBe(false);
  });

  it('a slow tenant gets a few slots at once in this process; a freed slot (once) makes room', () => {
    for (let i = 0; i < SLOW_STRIKES; i++) markSlow('t-slots');
    const frees = Array.from({ length: SLOW_TENANT_IN_FLIGHT }, () => takeSlot('t-slots'));
    expect(frees.every(Boolean)).toBe(true);
    expect(takeSlot('t-slots')).toBeUndefined();
    // Another tenant's slots are its own.
    const other = takeSlot('t-other');
    expect(other).toBeDefined();
    const free = must(frees[0], 'the first slot');
    free();
    free();
    const again = takeSlot('t-slots');
    expect(again).toBeDefined();
    expect(takeSlot('t-slots')).toBeUndefined();
    for (const f of [...frees, again, other]) f?.();
  });

  it('jobs put back wait longer the more of them there are, up to a minute, per tenant', () => {
    const now = 1_000_000;
    const delays = Array.from({ length: SLOW_TENANT_IN_FLIGHT * 3 }, () => requeueDelayMs('t-back', now));
    expect(delays.slice(0, SLOW_TENANT_IN_FLIGHT).every((d) => d === SLOW_REQUEUE_MS)).toBe(true);
    expect(delays.at(-1)).toBe(3 * SLOW_REQUEUE_MS);
    expect(requeueDelayMs('t-fresh', now)).toBe(SLOW_REQUEUE_MS);
    for (let i = 0; i < 10_000; i++) requeueDelayMs('t-back', now);
    expect(requeueDelayMs('t-back', now)).toBe(60_000);
    // A minute later the count starts again.
    expect(requeueDelayMs('t-back', now + 60_001)).toBe(SLOW_REQUEUE_MS);
  });
});
