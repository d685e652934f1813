import { describe, expect, it } from 'vitest';
import { dayOf, lastDays } from './daily.ts';

describe('usage per day', () => {
  it('names UTC days and lists the last ones oldest first', () => {
    const now = Date.parse('2026-03-01T00:30:00Z');
    expect(dayOf(now)).toBe('2026-03-01');
    expect(lastDays(3, now)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(lastDays(1, now)).toEqual(['2026-03-01']);
  });
});
