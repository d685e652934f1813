import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asciiJson, cloudDeliveryHeaders, hubSignature } from './sign.ts';

describe('Cloud-format signing', () => {
  it('escapes non-ASCII characters, as Meta does, and stays the same JSON', () => {
    const value = { text: 'héllo 👋 नमस्ते', n: 1 };
    const body = asciiJson(value);
    expect(body).toMatch(/^[\0-~]*$/);
    expect(body).toContain('h\\u00e9llo \\ud83d\\udc4b');
    expect(JSON.parse(body)).toEqual(value);
  });

  it('signs the raw body with HMAC-SHA256 keyed by the app secret', () => {
    const body = asciiJson({ object: 'whatsapp_business_account' });
    const want = createHmac('sha256', 'app-secret').update(body).digest('hex');
    expect(hubSignature('app-secret', body)).toBe(`sha256=${want}`);
    expect(cloudDeliveryHeaders({ deliveryId: 'd1', attempt: 2, body, appSecret: 'app-secret' })).toEqual({
      'content-type': 'application/json',
      'user-agent': 'session-manager-webhooks/1',
      'x-service-delivery-id': 'd1',
      'x-service-attempt': '2',
      'x-hub-signature-256': `sha256=${want}`,
    });
  });
});
