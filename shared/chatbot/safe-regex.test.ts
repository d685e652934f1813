import { describe, expect, it } from 'vitest';
import { ServiceError } from '../http/errors.ts';
import { cachedRegexSet, cachedSafeRegex, compileSafeRegex, MAX_PATTERN_LENGTH } from './safe-regex.ts';

const refusal = (pattern: string) => {
  try {
    compileSafeRegex(pattern);
  } catch (err) {
    return err;
  }
  return undefined;
};

describe('compileSafeRegex', () => {
  it('matches anywhere in the text, ignoring case', () => {
    const re = compileSafeRegex('price\\s+of\\s+(tv|fridge)');
    expect(re.test('What is the PRICE of   TV today?')).toBe(true);
    expect(re.test('what is the cost of a tv')).toBe(false);
  });

  it('answers a catastrophic pattern on a long input in linear time', () => {
    const re = compileSafeRegex('(a+)+$');
    const input = `${'a'.repeat(50_000)}!`;
    const started = performance.now();
    expect(re.test(input)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(re.test('aaaa')).toBe(true);
    const nested = compileSafeRegex('^(([a-z])+.)+[A-Z]([a-z])+$');
    const t2 = performance.now();
    nested.test(`${'aaaaaaaaaaaaaaaaaaaaaaaa'.repeat(200)}!`);
    expect(performance.now() - t2).toBeLessThan(1_000);
  });

  it('refuses invalid, unsupported, empty and over-long patterns with a 400 naming keyword', () => {
    for (const bad of ['(unclosed', '(a)\\1', 'foo(?=bar)', '', 'a'.repeat(MAX_PATTERN_LENGTH + 1)]) {
      const err = refusal(bad);
      expect(err, bad).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('VALIDATION_FAILED');
      expect((err as ServiceError).details?.field).toBe('keyword');
    }
  });

  it('refuses a pattern whose compiled program is too large', () => {
    expect((refusal('((((a{100}){100}){100}){100})') as ServiceError | undefined)?.code).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('cachedSafeRegex', () => {
  it('compiles once and answers undefined for a pattern that does not compile', () => {
    expect(cachedSafeRegex('hel+o')).toBe(cachedSafeRegex('hel+o'));
    expect(cachedSafeRegex('(a)\\1')).toBeUndefined();
  });
});

describe('cachedRegexSet', () => {
  it('answers the indices of every matching pattern in one pass, skipping patterns that do not compile', () => {
    const match = cachedRegexSet(['^hello', '(a)\\1', 'WORLD$', '(a+)+$', 'absent']);
    expect([...match('Hello big world')].sort()).toEqual([0, 2]);
    expect([...match(`${'a'.repeat(40_000)}`)]).toEqual([3]);
    const started = performance.now();
    expect([...match(`${'a'.repeat(40_000)}!`)]).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(cachedRegexSet(['^hello', '(a)\\1', 'WORLD$', '(a+)+$', 'absent'])).toBe(match);
    expect([...cachedRegexSet([])('anything')]).toEqual([]);
  });
});
