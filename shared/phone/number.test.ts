import { describe, expect, it } from 'vitest';
import {
  digitsOf,
  e164,
  isPhoneDigits,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  writtenDigits,
} from './number.ts';

describe('phone numbers', () => {
  it('one length rule: 7 to 15 digits with country code, from 4 for a national number', () => {
    expect([PHONE_MIN_DIGITS, PHONE_MAX_DIGITS]).toEqual([7, 15]);
    expect(isPhoneDigits('6834002')).toBe(true);
    expect(isPhoneDigits('919876543210')).toBe(true);
    expect(isPhoneDigits('123456789012345')).toBe(true);
    expect(isPhoneDigits('683400')).toBe(false);
    expect(isPhoneDigits('1234567890123456')).toBe(false);
    expect(isPhoneDigits('4002')).toBe(false);
    expect(isPhoneDigits('4002', { national: true })).toBe(true);
    expect(isPhoneDigits('400', { national: true })).toBe(false);
    expect(isPhoneDigits('1234567890123456', { national: true })).toBe(false);
    expect(isPhoneDigits('91987654321a')).toBe(false);
    expect(isPhoneDigits('')).toBe(false);
  });

  it('reads the notations people write', () => {
    expect(writtenDigits('+91 98765-43210')).toBe('919876543210');
    expect(writtenDigits(' (0) 98765.43210 ')).toBe('09876543210');
    expect(writtenDigits('919876543210@s.whatsapp.net')).toBe('919876543210');
    expect(writtenDigits('919876543210@c.us')).toBe('919876543210');
    // Left as it is where it is not a number, so that the length rule refuses it.
    expect(writtenDigits('123456789012345@lid')).toBe('123456789012345@lid');
    expect(writtenDigits('call me')).toBe('callme');
  });

  it('digitsOf keeps every digit and nothing else', () => {
    expect(digitsOf('+91 98765-43210')).toBe('919876543210');
    expect(digitsOf('qr_123')).toBe('123');
    expect(digitsOf('none')).toBe('');
  });

  it('E.164', () => {
    expect(e164('919876543210')).toBe('+919876543210');
  });
});
