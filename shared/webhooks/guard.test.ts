import { describe, expect, it } from 'vitest';
import { checkTargetUrl, TargetNotAllowedError } from './guard.ts';

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
