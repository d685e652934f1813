import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { api, newTenant } from '../support/client.ts';
import { must } from '../support/must.ts';

/** Fetches the QR image the service serves and decodes it. */
async function decodeQr(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(code).not.toBeNull();
  return must(code, 'code').data;
}

describe('payment links', () => {
  it('answers 422 PAYMENT_NOT_CONFIGURED without a payee, then a UPI link and a QR that decodes to it', async () => {
    const t = await newTenant();
    const none = await t.api.post('/api/v1/payments/link', { amount: 100 });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({
      success: false,
      error: {
        code: 'PAYMENT_NOT_CONFIGURED',
        message: expect.stringContaining('/api/v1/payments/settings'),
      },
    });
    const empty = await t.api.get('/api/v1/payments/settings');
    expect(empty.body).toEqual({ success: true, settings: null, effective: null });

    const put = await t.api.request('PUT', '/api/v1/payments/settings', {
      upiId: 'asha.clinic@okaxis',
      upiName: 'Asha Clinic & Co',
    });
    expect(put.status).toBe(200);
    expect(put.body.effective).toEqual({
      upiId: 'asha.clinic@okaxis',
      upiName: 'Asha Clinic & Co',
      source: 'tenant',
    });

    const r = await t.api.post('/api/v1/payments/link', {
      amount: 499.5,
      bookingId: 'B-17',
      customerName: 'മീര നായർ',
    });
    expect(r.status).toBe(200);
    const expected =
      'upi://pay?pa=asha.clinic@okaxis&pn=Asha%20Clinic%20%26%20Co&am=499.50' +
      `&tn=${encodeURIComponent('Booking B-17 - മീര നായർ')}&cu=INR`;
    expect(r.body).toEqual({
      success: true,
      upi_id: 'asha.clinic@okaxis',
      upi_name: 'Asha Clinic & Co',
      amount: 499.5,
      booking_id: 'B-17',
      upi_uri: expected,
      qr_image_url: expect.stringMatching(/^http/),
      gpay_deep_link: expected,
    });
    expect(r.body.qr_image_url).toContain('/links/v1.');
    expect(await decodeQr(r.body.qr_image_url)).toBe(r.body.upi_uri);

    // A whole amount still has two decimals; no booking → a plain note.
    const plain = await t.api.post('/api/v1/payments/link', { amount: 1200 });
    expect(plain.body.upi_uri).toBe(
      'upi://pay?pa=asha.clinic@okaxis&pn=Asha%20Clinic%20%26%20Co&am=1200.00&tn=Payment&cu=INR',
    );
    expect(plain.body.booking_id).toBeNull();
    expect(await decodeQr(plain.body.qr_image_url)).toBe(plain.body.upi_uri);

    // Another tenant does not get this payee.
    const other = await newTenant();
    expect((await other.api.post('/api/v1/payments/link', { amount: 10 })).status).toBe(422);

    // Removing the settings brings the 422 back.
    const del = await t.api.request('DELETE', '/api/v1/payments/settings');
    expect(del.body.settings).toBeNull();
    expect((await t.api.post('/api/v1/payments/link', { amount: 10 })).status).toBe(422);
  });

  it('answers 400 naming amount for a missing, non-numeric, zero or negative amount, and checks the settings', async () => {
    const t = await newTenant();
    await t.api.request('PUT', '/api/v1/payments/settings', { upiId: 'shop@upi', upiName: 'Shop' });
    for (const body of [
      {},
      { amount: 'abc' },
      { amount: 0 },
      { amount: -5 },
      { amount: null },
      { amount: 1.234 },
    ]) {
      const r = await t.api.post('/api/v1/payments/link', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_FAILED');
      expect(r.body.error.message).toMatch(/^amount: /);
    }
    const bad = await t.api.request('PUT', '/api/v1/payments/settings', {
      upiId: 'not a upi id',
      upiName: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^upiId: /);
    expect((await api().post('/api/v1/payments/link', { amount: 1 })).status).toBe(401);
  });
});
