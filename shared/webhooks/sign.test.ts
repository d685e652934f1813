import { describe, expect, it } from 'vitest';
import { deliveryHeaders, signature, verifySignature } from './sign.ts';

describe('signing', () => {
  it('signs timestamp.body with HMAC-SHA256 and verifies', () => {
    const body = JSON.stringify({ event: 'message.inbound' });
    const h = deliveryHeaders({
      deliveryId: 'dlv_1',
      event: 'message.inbound',
      attempt: 1,
      body,
      secret: 'k',
      now: 1_700_000_000_000,
    });
    expect(h['x-service-timestamp']).toBe('1700000000');
    expect(h['x-service-secret']).toBe('k');
    expect(h['x-service-signature']).toBe(signature('k', '1700000000', body));
    expect(h['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature('k', '1700000000', body, h['x-service-signature'] ?? '')).toBe(true);
    expect(verifySignature('k', '1700000001', body, h['x-service-signature'] ?? '')).toBe(false);
  });

  it('without a secret sends neither secret nor signature', () => {
    const h = deliveryHeaders({ deliveryId: 'dlv_1', event: 'e', attempt: 2, body: '{}' });
    expect(h['x-service-secret']).toBeUndefined();
    expect(h['x-service-signature']).toBeUndefined();
    expect(h['x-service-delivery-id']).toBe('dlv_1');
  });
});
