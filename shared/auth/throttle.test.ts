import { describe, expect, it } from 'vitest';
import { addressBucket, WINDOW_SECONDS, windowOf } from './throttle.ts';

describe('addressBucket', () => {
  it('keeps IPv4 addresses, and unwraps IPv4-mapped IPv6 ones', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 by its /64, however the address is written', () => {
    const bucket = '2001:db8:1:2::/64';
    expect(addressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(bucket);
    expect(addressBucket('2001:0db8:0001:0002::1')).toBe(bucket);
    expect(addressBucket('2001:db8:1:2::1%eth0')).toBe(bucket);
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });
});

describe('windowOf', () => {
  it('answers the fixed window a moment falls in', () => {
    const start = 1_700_000_040;
    expect(start % WINDOW_SECONDS).toBe(0);
    expect(windowOf(start * 1000)).toEqual({ start, end: start + WINDOW_SECONDS });
    expect(windowOf((start + WINDOW_SECONDS) * 1000 - 1)).toEqual({ start, end: start + WINDOW_SECONDS });
  });
});
