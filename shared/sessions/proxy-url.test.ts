import { describe, expect, it } from 'vitest';
import { assertProxyAddressAllowed, proxyUrlProblem } from './proxy-url.ts';

describe('proxyUrlProblem', () => {
  it('takes http, https and socks5 proxies with credentials and a port', () => {
    for (const ok of [
      'http://proxy.example.com:3128',
      'https://user:p%40ss@proxy.example.com',
      'socks5://user:pass@10.0.0.5:1080',
      'socks5h://proxy.example.com:1080/',
    ])
      expect(proxyUrlProblem(ok), ok).toBeUndefined();
  });

  it('names what is wrong with anything else', () => {
    expect(proxyUrlProblem('socks4://proxy.example.com:1080')).toMatch(/socks4: is not a proxy scheme/);
    expect(proxyUrlProblem('http://proxy.example.com/x')).toMatch(/no path/);
    expect(proxyUrlProblem('http://proxy.example.com?token=1')).toMatch(/no path, query/);
    expect(proxyUrlProblem('proxy.example.com:3128')).toMatch(/not a proxy scheme|not a valid URL/);
  });
});

describe('assertProxyAddressAllowed', () => {
  it('refuses private, loopback and metadata addresses unless allowed', async () => {
    for (const raw of [
      'http://127.0.0.1:3128',
      'socks5://u:p@169.254.169.254:1080',
      'http://[::1]:3128',
      'http://localhost:3128',
      'http://10.1.2.3:3128',
    ]) {
      await expect(assertProxyAddressAllowed(raw, false), raw).rejects.toThrow(/^proxyUrl: .* address/);
      await expect(assertProxyAddressAllowed(raw, true), raw).resolves.toBeUndefined();
    }
    await expect(assertProxyAddressAllowed('http://8.8.8.8:3128', false)).resolves.toBeUndefined();
  });
});
