import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { clientAddress } from './client-address.ts';
import { EDGE_ORIGIN_HEADER, edgeOnly, VIEWER_ADDRESS_HEADER } from './edge-origin.ts';
import { serviceApp } from './service-app.ts';

const KEY = 'k'.repeat(48);

/** An app as the Lambda runs it: API Gateway's event (sourceIp: CloudFront's edge) in the bindings. */
function appWith(key: string | undefined) {
  if (key === undefined) delete process.env.EDGE_ORIGIN_KEY;
  else process.env.EDGE_ORIGIN_KEY = key;
  resetEnvCache();
  const app = serviceApp();
  app.use('*', edgeOnly());
  app.get('/who', (c) => c.json({ address: clientAddress(c) ?? null }));
  return (headers: Record<string, string>) =>
    app.request('/who', { headers }, { event: { requestContext: { http: { sourceIp: '130.176.0.1' } } } });
}

afterEach(() => {
  delete process.env.EDGE_ORIGIN_KEY;
  resetEnvCache();
});

describe('requests through the distribution only', () => {
  it('with the key: served, at the viewer address the distribution wrote', async () => {
    const r = await appWith(KEY)({ [EDGE_ORIGIN_HEADER]: KEY, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ address: '203.0.113.7' });
  });

  it('without it, or with a wrong one: 403 JSON, and a viewer address a client made up counts for nothing', async () => {
    const call = appWith(KEY);
    for (const headers of <Array<Record<string, string>>>[
      {},
      { [EDGE_ORIGIN_HEADER]: 'x'.repeat(48), [VIEWER_ADDRESS_HEADER]: '203.0.113.7' },
      { [EDGE_ORIGIN_HEADER]: KEY.slice(1) },
    ]) {
      const r = await call(headers);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
  });

  it('no key configured (local mode): everything served, at the runtime’s own address; the header is ignored', async () => {
    const r = await appWith(undefined)({
      [VIEWER_ADDRESS_HEADER]: '203.0.113.7',
      [EDGE_ORIGIN_HEADER]: 'anything',
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ address: '130.176.0.1' });
  });
});
