import { describe, expect, it } from 'vitest';
import type { Delivery } from '#shared/webhooks/lifecycle';
import { deliveryView } from './delivery-view.ts';

describe('deliveryView', () => {
  it('masks a secret query parameter in the URL and in every attempt, parses the payload and leaves out the claim', () => {
    const url = 'https://hooks.example.com/in?token=abc123&site=7';
    const d: Delivery = {
      id: 'dlv_1',
      tenantId: 't1',
      sessionId: 's1',
      event: 'message.inbound',
      body: '{"event":"message.inbound"}',
      status: 'delivered',
      round: 0,
      attempts: 1,
      url,
      claimToken: 'claim-secret',
      attemptLog: [
        {
          round: 0,
          attempt: 1,
          at: 'x',
          url,
          statusCode: 200,
          error: null,
          durationMs: 5,
          outcome: 'delivered',
        },
      ],
      createdAt: 'x',
      updatedAt: 'x',
    };
    const v = deliveryView(d);
    expect(v.url).toBe('https://hooks.example.com/in?token=********&site=7');
    expect(v.attemptLog[0]?.url).toBe('https://hooks.example.com/in?token=********&site=7');
    expect(v.payload).toEqual({ event: 'message.inbound' });
    expect(JSON.stringify(v)).not.toContain('abc123');
    expect(JSON.stringify(v)).not.toContain('claim-secret');
  });
});
