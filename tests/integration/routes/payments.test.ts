import { describe, expect, it } from 'vitest';
import { expectInvalid, tenant } from '../../support/in-process.ts';

/** /api/v1/payments in-process (functions/api/payments/): UPI settings and links. */
describe('payments routes', () => {
  it('saves the payee, makes a link with it, and keeps it to the tenant', async () => {
    const [a, b] = await Promise.all([tenant('payments-a'), tenant('payments-b')]);
    const put = await a.api.put('/api/v1/payments/settings', { upiId: 'shop@upi', upiName: 'The Shop' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.settings).toMatchObject({ upiId: 'shop@upi', upiName: 'The Shop' });
    const link = await a.api.post('/api/v1/payments/link', { amount: 250, bookingId: 'B-1' });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(link.body).toMatchObject({ success: true, upi_id: 'shop@upi', amount: 250, booking_id: 'B-1' });
    expect(link.body.upi_uri).toMatch(/^upi:\/\/pay\?/);
    expect((await b.api.get('/api/v1/payments/settings')).body.settings?.upiId).not.toBe('shop@upi');
    const deleted = await a.api.delete('/api/v1/payments/settings');
    expect(deleted.status).toBe(200);
  });

  it('names the bad field', async () => {
    const t = await tenant('payments-bad');
    expectInvalid(await t.api.put('/api/v1/payments/settings', { upiName: 'x' }), 'upiId');
    expectInvalid(await t.api.post('/api/v1/payments/link', { amount: 'lots' }), 'amount');
  });
});
