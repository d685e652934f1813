import { describe, expect, it } from 'vitest';
import { DEFAULT_COOLDOWN, parseKeys } from './config.ts';
import { classifyFailure, ModelUnavailableError, ProviderCallError, retryAfterMs, scrub } from './errors.ts';

const http = (status: number, detail = '', retryAfter?: string) =>
  new ProviderCallError({ kind: 'http', status, detail, retryAfter });
const now = Date.parse('2030-01-01T00:00:00Z');

describe('classifyFailure', () => {
  it('rotates on 429 honouring retry-after, else the default', () => {
    expect(classifyFailure(http(429, 'rate limited', '7'), DEFAULT_COOLDOWN, now)).toEqual({
      action: 'rotate',
      cooldownMs: 7000,
      reason: 'rate limited',
    });
    expect(classifyFailure(http(429, 'rate limited'), DEFAULT_COOLDOWN, now)).toMatchObject({
      cooldownMs: DEFAULT_COOLDOWN.rateLimitMs,
    });
  });

  it('rotates on 529, 401 and quota wording with their own cool-downs', () => {
    expect(classifyFailure(http(529), DEFAULT_COOLDOWN)).toMatchObject({ reason: 'overloaded' });
    expect(classifyFailure(http(401), DEFAULT_COOLDOWN)).toMatchObject({
      reason: 'unauthorized',
      cooldownMs: DEFAULT_COOLDOWN.authMs,
    });
    for (const e of [
      http(400, 'Your credit balance is too low to access the API'),
      http(403, 'quota exceeded for this workspace'),
      http(402, ''),
      http(
        429,
        'You exceeded your current quota, please check your plan and billing details. insufficient_quota',
      ),
    ]) {
      expect(classifyFailure(e, DEFAULT_COOLDOWN)).toMatchObject({
        action: 'rotate',
        reason: 'quota',
        cooldownMs: DEFAULT_COOLDOWN.quotaMs,
      });
    }
  });

  it('leaves the pool on 5xx, other 4xx, timeouts, network errors and blank replies', () => {
    for (const e of [
      http(500),
      http(503),
      http(400, 'messages: roles must alternate'),
      http(404, 'model not found'),
      new ProviderCallError({ kind: 'timeout' }),
      new ProviderCallError({ kind: 'network', detail: 'ECONNREFUSED' }),
      new ProviderCallError({ kind: 'empty' }),
    ]) {
      expect(classifyFailure(e, DEFAULT_COOLDOWN).action).toBe('abandon');
    }
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('keys never leak', () => {
  it('scrubs the key and key-shaped strings from provider messages', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    expect(scrub(`Incorrect API key provided: ${key}`, key)).toBe('Incorrect API key provided: [key]');
    expect(scrub('Incorrect API key provided: sk-proj-****************wxyz')).toBe(
      'Incorrect API key provided: [key]',
    );
  });

  it('ModelUnavailableError names tiers and indexes, and shortens long lists', () => {
    const attempts = Array.from({ length: 20 }, (_, i) => ({
      tier: 'primary' as const,
      keyIndex: i,
      outcome: 'HTTP 429',
    }));
    const err = new ModelUnavailableError(attempts);
    expect(err.name).toBe('ModelUnavailableError');
    expect(err.message).toContain('primary[11]: HTTP 429; and 8 more');
    expect(new ModelUnavailableError([]).message).toBe('no model answered (no provider configured)');
  });
});

describe('parseKeys', () => {
  it('splits, trims, drops blanks, and refuses more than 100 keys', () => {
    expect(parseKeys('K', ' a, b ,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseKeys('K', undefined)).toEqual([]);
    expect(() => parseKeys('K', Array.from({ length: 101 }, (_, i) => `k${i}`).join(','))).toThrow(
      'K holds 101 keys; at most 100 are allowed',
    );
  });
});
