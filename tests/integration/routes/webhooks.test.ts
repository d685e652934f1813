import { beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  expectNotFound,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** /api/webhook in-process (functions/api/webhooks/): the config and the deliveries log. */
describe('webhook routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('webhooks'));
  });

  it('saves and answers the tenant config without its secret', async () => {
    const saved = await a.api.post('/api/webhook/config', {
      webhookUrl: 'https://hooks.example.com/in',
      approvedDomains: ['hooks.example.com'],
      secretToken: 'a-long-enough-secret-token',
      enabled: true,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.success).toBe(true);
    const got = await a.api.get('/api/webhook/config');
    expect(got.status).toBe(200);
    expect(got.body.config).toMatchObject({
      webhookUrl: 'https://hooks.example.com/in',
      hasSecret: true,
      enabled: true,
    });
    expect(got.body.effective).toMatchObject({ webhookUrl: 'https://hooks.example.com/in', enabled: true });
    expect(JSON.stringify(got.body)).not.toContain('a-long-enough-secret-token');
    // Another tenant's config is its own (none).
    expect((await b.api.get('/api/webhook/config')).body.config.webhookUrl).toBeNull();
  });

  it('names the bad field', async () => {
    expectInvalid(await a.api.post('/api/webhook/config', { webhookUrl: 'not a url' }), 'webhookUrl');
    expectInvalid(await a.api.post('/api/webhook/config', { format: 'soap' }), 'format');
    expectInvalid(await a.api.post('/api/webhook/config', { enabled: 'yes' }), 'enabled');
    expectInvalid(await a.api.get('/api/webhook/deliveries?limit=0'), 'limit');
    expectInvalid(await a.api.get('/api/webhook/deliveries?status=lost'), 'status');
  });

  it('lists deliveries (none yet) and answers 404 for unknown ones and for another tenant', async () => {
    // Tenant b has no session, so no event and no delivery (a's session may have some by now).
    const list = await b.api.get('/api/webhook/deliveries');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ success: true, count: 0, deliveries: [] });
    const nobody = `dlv_${'0'.repeat(24)}`;
    expectNotFound(await a.api.get(`/api/webhook/deliveries/${nobody}`));
    expectNotFound(await a.api.post(`/api/webhook/deliveries/${nobody}/redeliver`));
    expectInvalid(await a.api.get('/api/webhook/deliveries/d_nobody'), 'id');
    expectNotFound(await b.api.get(`/api/webhook/config?sessionId=${sessionId}`));
    expectNotFound(await b.api.post('/api/webhook/config', { sessionId, enabled: false }));
    expect((await caller().get('/api/webhook/deliveries')).status).toBe(401);
  });
});
