import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, jsonTextProblem } from './json-text.ts';

const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('jsonTextProblem', () => {
  it('takes ordinary JSON, pairs written raw or escaped, and escaped quotes and backslashes', () => {
    for (const ok of [
      '{"a":[1,{"b":"c"}]}',
      JSON.stringify({ emoji: '😀 नमस्ते' }),
      '{"e":"\\ud83d\\ude00"}',
      '{"q":"a \\" [ { \\\\"}',
      '"[[[[" ',
      nested(JSON_MAX_DEPTH),
    ]) {
      expect(jsonTextProblem(ok), ok.slice(0, 40)).toBeUndefined();
    }
  });

  it('refuses nesting deeper than the limit, counting arrays and objects alike', () => {
    expect(jsonTextProblem(nested(JSON_MAX_DEPTH + 1))).toMatch(/nested at most 64/);
    expect(jsonTextProblem(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`)).toMatch(/nested/);
  });

  it('refuses a lone surrogate, high or low, escaped or raw', () => {
    for (const bad of [
      '{"n":"\\ud800"}',
      '{"n":"\\udc00x"}',
      '{"n":"\\ud800\\n"}',
      '{"n":"\\ud800\\u0041"}',
      '{"n":"a\\ude00"}',
      `{"n":"${'\ud800'}"}`,
      '["\\ud83d", "\\ude00"]',
    ]) {
      expect(jsonTextProblem(bad), bad).toMatch(/valid Unicode/);
    }
  });

  it('refuses NUL in any string, keys included', () => {
    expect(jsonTextProblem('{"text":"hi\\u0000-f/etc/passwd"}')).toMatch(/NUL/);
    expect(jsonTextProblem('{"a\\u0000":1}')).toMatch(/NUL/);
    expect(jsonTextProblem('{"text":"\\\\u0000"}')).toBeUndefined();
  });
});
