import { describe, expect, it } from 'vitest';
import { effectiveConfig, isApprovedHost, maskSecret, normaliseDomain } from './config.ts';

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
