import { describe, expect, it } from 'vitest';
import { adminToken, api, newTenant } from '../support/client.ts';
import { openStream } from '../support/sse-client.ts';

/**
 * A stream already open is closed once the credential that opened it no longer holds (docs/security.md,
 * "Revocation"): the test service rechecks every 500 ms (SSE_ACCESS_RECHECK_MS).
 */
const within = async (p: Promise<unknown>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'open'>((r) => {
    timer = setTimeout(() => r('open'), ms);
  });
  const outcome = await Promise.race([p.then(() => 'ended' as const), timeout]);
  clearTimeout(timer);
  return outcome;
};

describe('open streams and revocation', () => {
  it('a portal stream ends when its portal id is rotated, and not before', async () => {
    const t = await newTenant();
    const stream = await openStream(t.portalId);
    expect(stream.status).toBe(200);
    await stream.connected;
    // Two rechecks pass with the portal id still valid: the stream stays open.
    expect(await within(stream.ended, 1_500)).toBe('open');
    expect((await t.api.post('/api/portal/rotate')).status).toBe(200);
    expect(await within(stream.ended, 5_000)).toBe('ended');
  });

  it('a portal stream ends when its tenant is disabled', async () => {
    const t = await newTenant();
    const stream = await openStream(t.portalId);
    await stream.connected;
    expect((await api(await adminToken()).post(`/api/admin/tenants/${t.id}/disable`)).status).toBe(200);
    expect(await within(stream.ended, 5_000)).toBe('ended');
  });

  it('an extraction stream opened with an API key ends when the key is revoked; another key’s stream stays', async () => {
    const t = await newTenant();
    const second = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/keys`, { label: 'sse' });
    expect(second.status).toBe(201);
    const path = '/api/v1/chatbot/extracted-stream';
    const revoked = await openStream('', { path, query: `?key=${second.body.apiKey}` });
    const kept = await openStream('', { path, query: `?key=${t.apiKey}` });
    expect([revoked.status, kept.status]).toEqual([200, 200]);
    await Promise.all([revoked.connected, kept.connected]);
    expect((await t.api.delete(`/api/keys/${second.body.keyId}`)).status).toBe(200);
    expect(await within(revoked.ended, 5_000)).toBe('ended');
    expect(await within(kept.ended, 1_500)).toBe('open');
    await kept.close();
  });
});
