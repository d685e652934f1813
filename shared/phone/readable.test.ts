import { describe, expect, it } from 'vitest';
import { callingCodeOf, readableNumber } from './readable.ts';

describe('readable numbers', () => {
  it('spaced international form, or +<digits> when the numbering plan does not know the number', () => {
    expect(readableNumber('919876543210')).toBe('+91 98765 43210');
    expect(readableNumber('14155550123')).toBe('+1 415 555 0123');
    expect(readableNumber('999123')).toBe('+999123');
  });

  it('calling codes', () => {
    expect(callingCodeOf('919876543210')).toBe('91');
    expect(callingCodeOf('14155550123')).toBe('1');
    expect(callingCodeOf('999123')).toBeUndefined();
  });
});
