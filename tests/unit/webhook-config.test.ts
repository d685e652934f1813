import { describe, expect, it } from 'vitest';
import { delaySeconds, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from '#shared/webhooks/backoff';
import { effectiveConfig, isApprovedHost, maskSecret, normaliseDomain } from '#shared/webhooks/config';
import { deliveryHeaders, signature, verifySignature } from '../../functions/webhooks/sign.ts';

describe('approved domains', () => {
  it('matches the host and its subdomains, never a look-alike', () => {
    const domains = ['example.com', '*.hooks.io', 'https://Other.net:8443/x'];
    expect(isApprovedHost('example.com', domains)).toBe(true);
    expect(isApprovedHost('api.example.com', domains)).toBe(true);
    expect(isApprovedHost('a.hooks.io', domains)).toBe(true);
    expect(isApprovedHost('other.net', domains)).toBe(true);
    expect(isApprovedHost('badexample.com', domains)).toBe(false);
    expect(isApprovedHost('example.com.evil.io', domains)).toBe(false);
  });

  it('`*` approves all; IPs match exactly; nothing approves nothing', () => {
    expect(isApprovedHost('anything.io', ['*'])).toBe(true);
    expect(isApprovedHost('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isApprovedHost('[::1]', ['[::1]'])).toBe(true);
    expect(isApprovedHost('10.0.0.1', ['0.0.1'])).toBe(false);
    expect(isApprovedHost('example.com', [])).toBe(false);
    expect(normaliseDomain(' .Example.COM. ')).toBe('example.com');
  });

  it('session fields win over tenant fields; unset fields inherit', () => {
    const tenant = { webhookUrl: 'https://t.io/h', secretToken: 's1', approvedDomains: ['t.io'] };
    const eff = effectiveConfig(tenant, { webhookUrl: 'https://s.io/h', approvedDomains: ['s.io'] });
    expect(eff).toMatchObject({
      webhookUrl: 'https://s.io/h',
      secretToken: 's1',
      domainsSource: 'session',
      enabled: true,
    });
    expect(effectiveConfig(tenant, { enabled: false }).enabled).toBe(false);
    expect(effectiveConfig(undefined, undefined)).toMatchObject({ approvedDomains: [], enabled: true });
  });

  it('masks secrets', () => {
    expect(maskSecret(undefined)).toBeNull();
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret('a-long-secret-1234')).toBe('****1234');
  });
});

describe('signing', () => {
  it('signs timestamp.body with HMAC-SHA256 and verifies', () => {
    const body = JSON.stringify({ event: 'message.inbound' });
    const h = deliveryHeaders({
      deliveryId: 'dlv_1',
      event: 'message.inbound',
      attempt: 1,
      body,
      secret: 'k',
      now: 1_700_000_000_000,
    });
    expect(h['x-service-timestamp']).toBe('1700000000');
    expect(h['x-service-secret']).toBe('k');
    expect(h['x-service-signature']).toBe(signature('k', '1700000000', body));
    expect(h['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('k', '1700000000', body, h['x-service-signature'] ?? '')).toBe(true);
    expect(verifySignature('k', '1700000001', body, h['x-service-signature'] ?? '')).toBe(false);
  });

  it('without a secret sends neither secret nor signature', () => {
    const h = deliveryHeaders({ deliveryId: 'dlv_1', event: 'e', attempt: 2, body: '{}' });
    expect(h['x-service-secret']).toBeUndefined();
    expect(h['x-service-signature']).toBeUndefined();
    expect(h['x-service-delivery-id']).toBe('dlv_1');
  });
});

describe('backoff', () => {
  const cfg = { baseMs: 10_000, maxDelayMs: 900_000 };
  it('doubles with ±20 % jitter, capped at 15 minutes, about an hour in all', () => {
    expect(retryDelayMs(1, cfg, undefined, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(2, cfg, undefined, () => 0)).toBe(16_000);
    expect(retryDelayMs(3, cfg, undefined, () => 1)).toBe(48_000);
    expect(retryDelayMs(9, cfg, undefined, () => 1)).toBe(900_000);
    let total = 0;
    for (let a = 1; a < MAX_ATTEMPTS; a++) total += retryDelayMs(a, cfg, undefined, () => 0.5);
    expect(total / 60_000).toBeGreaterThan(45);
    expect(total / 60_000).toBeLessThan(65);
  });

  it('honours a longer Retry-After and rounds to whole SQS seconds', () => {
    expect(retryDelayMs(1, cfg, 60_000, () => 0.5)).toBe(60_000);
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(delaySeconds(200)).toBe(0);
    expect(delaySeconds(600)).toBe(1);
    expect(delaySeconds(1_600)).toBe(2);
    expect(delaySeconds(5_000_000)).toBe(900);
  });
});
