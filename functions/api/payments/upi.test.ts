import { describe, expect, it } from 'vitest';
import { resolvePayee, upiAmount, upiEncode, upiNote, upiUri } from './upi.ts';

describe('UPI links', () => {
  it('encodes spaces as %20 and keeps @, with the amount in two decimals', () => {
    const uri = upiUri({
      payee: { upiId: 'shop.owner@okaxis', upiName: 'Asha & Sons Clinic' },
      amount: 499.5,
      note: 'Booking B-17 - Ravi K',
    });
    expect(uri).toBe(
      'upi://pay?pa=shop.owner@okaxis&pn=Asha%20%26%20Sons%20Clinic&am=499.50&tn=Booking%20B-17%20-%20Ravi%20K&cu=INR',
    );
    expect(uri).not.toContain('+');
    // What a parser gives back is what went in.
    const q = new URL(uri.replace('upi://pay', 'http://x/pay')).searchParams;
    expect(q.get('pn')).toBe('Asha & Sons Clinic');
    expect(q.get('tn')).toBe('Booking B-17 - Ravi K');
  });

  it('escapes non-ASCII text and reserved characters', () => {
    expect(upiEncode('മീര')).toBe('%E0%B4%AE%E0%B5%80%E0%B4%B0');
    expect(upiEncode("a+b=c?d#e'(x)*!")).toBe('a%2Bb%3Dc%3Fd%23e%27%28x%29%2A%21');
  });

  it('writes amounts with two decimals', () => {
    expect(upiAmount(1)).toBe('1.00');
    expect(upiAmount(0.1 + 0.2)).toBe('0.30');
    expect(upiAmount(1234.567)).toBe('1234.57');
  });

  it('takes the payee from the tenant, else the environment, else none', () => {
    const env = { PAYMENT_UPI_ID: 'env@upi', PAYMENT_UPI_NAME: 'Env Shop' };
    expect(resolvePayee({ upiId: 'tenant@upi', upiName: 'T' }, env)).toEqual({
      upiId: 'tenant@upi',
      upiName: 'T',
      source: 'tenant',
    });
    expect(resolvePayee(undefined, env)).toEqual({
      upiId: 'env@upi',
      upiName: 'Env Shop',
      source: 'environment',
    });
    expect(resolvePayee(undefined, { PAYMENT_UPI_ID: 'only@upi' })?.upiName).toBe('only@upi');
    expect(resolvePayee(undefined, { PAYMENT_UPI_NAME: 'No id' })).toBeUndefined();
    expect(resolvePayee(undefined, {})).toBeUndefined();
  });

  it('notes the booking and the customer', () => {
    expect(upiNote('B1', 'Ravi')).toBe('Booking B1 - Ravi');
    expect(upiNote(undefined, 'Ravi')).toBe('Ravi');
    expect(upiNote()).toBe('Payment');
  });
});
