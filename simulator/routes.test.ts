import { afterEach, describe, expect, it } from 'vitest';
import { SIM_CONTROL_BODY_LIMIT } from './routes/body.ts';
import { simulatorRoutes } from './routes.ts';

describe('the simulated network’s routes', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = saved;
  });

  it('refuse to start with NODE_ENV=production (they ask for no credentials)', () => {
    process.env.NODE_ENV = 'production';
    expect(() => simulatorRoutes()).toThrow(/NODE_ENV=production/);
    process.env.NODE_ENV = 'test';
    expect(() => simulatorRoutes()).not.toThrow();
  });

  it('refuse a body over the limit with 413, by its declared length or as it is read', async () => {
    const r = simulatorRoutes();
    const big = JSON.stringify({
      sessionId: 'qr_1',
      from: '919800000001',
      text: 'x'.repeat(SIM_CONTROL_BODY_LIMIT),
    });
    const declared = await r.request('/_sim/inbound', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const counted = await r.request('/_sim/inbound', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(counted.status).toBe(413);
  });

  it('refuse hostile JSON as an invalid body (400), as every JSON route does', async () => {
    const r = simulatorRoutes();
    for (const body of [
      `{"sessionId":"qr_1","from":"919800000001","text":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      '{"sessionId":"qr_1","from":"919800000001","text":"\\ud800"}',
    ]) {
      const res = await r.request('/_sim/inbound', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
    }
  });

  it('answer an ack with a bad body 400, with a token the network does not know 401', async () => {
    const r = simulatorRoutes();
    const ack = (body: unknown) =>
      r.request('/_sim/device/nobody/ack', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    expect((await ack({ token: 't', ids: [] })).status).toBe(400);
    expect((await ack({ token: 't', ids: Array(1001).fill('m') })).status).toBe(400);
    expect((await ack({ token: 't', ids: ['m'] })).status).toBe(401);
    expect((await r.request('/_sim/unacked?sessionId=nobody')).status).toBe(404);
  });
});
