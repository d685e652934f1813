/**
 * UPI payment links (docs/payments.md). Pure functions: the payee, the amount and the URI.
 */

export interface Payee {
  upiId: string;
  upiName: string;
}

/** A UPI id (virtual payment address): `handle@bank`, e.g. `shop.owner@okaxis`. */
export const UPI_ID_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9.-]{1,63}$/;

/**
 * Where the payee comes from: the tenant's own settings, else the environment (`PAYMENT_UPI_ID`,
 * with `PAYMENT_UPI_NAME`, the id itself when no name is set), else none.
 */
export function resolvePayee(
  tenant: Partial<Payee> | undefined,
  env: { PAYMENT_UPI_ID?: string; PAYMENT_UPI_NAME?: string },
): (Payee & { source: 'tenant' | 'environment' }) | undefined {
  if (tenant?.upiId)
    return { upiId: tenant.upiId, upiName: tenant.upiName || tenant.upiId, source: 'tenant' };
  const id = env.PAYMENT_UPI_ID?.trim();
  if (id) return { upiId: id, upiName: env.PAYMENT_UPI_NAME?.trim() || id, source: 'environment' };
  return undefined;
}

/** Rupees with two decimals, as UPI wants them: `499` → `499.00`. */
export const upiAmount = (amount: number) => amount.toFixed(2);

/**
 * RFC 3986 percent-encoding of a query value: a space is `%20` (never `+`, which UPI apps show
 * literally), UTF-8 bytes are escaped; `@` stays as it is (allowed in a query, and how UPI ids are
 * written in every UPI QR).
 */
export function upiEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%40/g, '@');
}

/** `upi://pay?pa=<id>&pn=<name>&am=<amount>&tn=<note>&cu=INR` (NPCI's linking specification order). */
export function upiUri(p: { payee: Payee; amount: number; note: string }): string {
  const params: Array<[string, string]> = [
    ['pa', p.payee.upiId],
    ['pn', p.payee.upiName],
    ['am', upiAmount(p.amount)],
    ['tn', p.note],
    ['cu', 'INR'],
  ];
  return `upi://pay?${params.map(([k, v]) => `${k}=${upiEncode(v)}`).join('&')}`;
}

/** The transaction note: `Booking <id> - <customer>`, or what of that is known, else `Payment`. */
export function upiNote(bookingId?: string, customerName?: string): string {
  const parts = [bookingId ? `Booking ${bookingId}` : '', customerName ?? ''].filter(Boolean);
  return (parts.join(' - ') || 'Payment').slice(0, 80);
}
