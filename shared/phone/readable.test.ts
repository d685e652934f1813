import { describe, expect, it } from 'vitest';
import { numberingPlan } from './readable.ts';

describe('readable numbers', () => {
  it('spaced international form, or +<digits> when the numbering plan does not know the number', async () => {
    const plan = await numberingPlan();
    expect(plan.readable('919876543210')).toBe('+91 98765 43210');
    expect(plan.readable('14155550123')).toBe('+1 415 555 0123');
    expect(plan.readable('999123')).toBe('+999123');
  });

  it('calling codes', async () => {
    const plan = await numberingPlan();
    expect(plan.callingCode('919876543210')).toBe('91');
    expect(plan.callingCode('14155550123')).toBe('1');
    expect(plan.callingCode('999123')).toBeUndefined();
  });

  it('is loaded once', async () => {
    expect(await numberingPlan()).toBe(await numberingPlan());
  });
});
