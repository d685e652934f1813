import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../config/env.ts';
import { corsHeadersFor, corsMiddleware } from './cors.ts';
import { ForbiddenError } from './errors.ts';
import { serviceApp } from './service-app.ts';

function appWith(origins: string | undefined) {
  if (origins === undefined) delete process.env.CORS_ORIGINS;
  else process.env.CORS_ORIGINS = origins;
  resetEnvCache();
  const app = serviceApp();
  app.use('*', corsMiddleware());
  app.get('/ok', (c) => c.json({ ok: true }));
  app.get('/no', () => {
    throw new ForbiddenError();
  });
  return app;
}

const preflight = (origin: string) =>
  new Request('http://api.test/ok', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization,last-event-id',
    },
  });

afterEach(() => {
  delete process.env.CORS_ORIGINS;
  resetEnvCache();
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin, with the credential and resumption headers', async () => {
    const res = await appWith('https://app.example, https://b.example/').fetch(
      preflight('https://b.example'),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://b.example');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Last-Event-ID/);
  });

  it('gives another origin no CORS headers', async () => {
    const app = appWith('https://app.example');
    const pre = await app.fetch(preflight('https://evil.example'));
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const get = await app.fetch(
      new Request('http://api.test/ok', { headers: { origin: 'https://evil.example' } }),
    );
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an allowed origin can read answers and errors alike', async () => {
    const app = appWith('https://app.example');
    const headers = { origin: 'https://app.example' };
    const ok = await app.fetch(new Request('http://api.test/ok', { headers }));
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
    const no = await app.fetch(new Request('http://api.test/no', { headers }));
    expect(no.status).toBe(403);
    expect(no.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('is off by default', async () => {
    const res = await appWith(undefined).fetch(preflight('https://app.example'));
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('headers written past Hono (a stream on the raw response): the allowed origin only, varying by it', () => {
    appWith('https://app.example');
    expect(corsHeadersFor('https://app.example')).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      vary: 'Origin',
    });
    expect(corsHeadersFor('https://evil.example')).toEqual({});
    expect(corsHeadersFor(undefined)).toEqual({});
    appWith(undefined);
    expect(corsHeadersFor('https://app.example')).toEqual({});
  });
});
