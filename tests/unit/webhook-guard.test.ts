import { describe, expect, it } from 'vitest';
import { blockedReason } from '#shared/webhooks/address';
import { checkTargetUrl, TargetNotAllowedError } from '#shared/webhooks/guard';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:0a00:0001::', 'private'],
  ])('%s is %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(blockedReason(ip)).toBeUndefined();
    },
  );
});

describe('checkTargetUrl', () => {
  it('refuses IP literals in every spelling the URL parser accepts', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      expect(() => checkTargetUrl(url, false), url).toThrow(TargetNotAllowedError);
    }
  });

  it('refuses other schemes and lets public hosts through', () => {
    expect(() => checkTargetUrl('file:///etc/passwd', false)).toThrow(TargetNotAllowedError);
    expect(() => checkTargetUrl('ftp://example.com/', false)).toThrow(TargetNotAllowedError);
    expect(checkTargetUrl('https://example.com/hook', false).hostname).toBe('example.com');
    expect(checkTargetUrl('http://127.0.0.1/', true).hostname).toBe('127.0.0.1');
  });
});
