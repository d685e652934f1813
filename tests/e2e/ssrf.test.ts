import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guardedFetch,
  TargetNotAllowedError,
  TargetTimeoutError,
  TargetTooLargeError,
} from '#shared/outbound/guard';

/**
 * The service under test runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true so that local receivers work;
 * the guard itself is exercised here with the override off, against a real local server that must
 * never see a request.
 */
let port = 0;
let hits = 0;
const server = createServer((req, res) => {
  hits++;
  if (req.url === '/redirect') return res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
  if (req.url === '/big') return res.writeHead(200).end(Buffer.alloc(64 * 1024));
  if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end('late'), 2000);
  res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const guarded = (url: string) =>
  guardedFetch(url, { method: 'POST', body: '{}' }, { allowPrivate: false, timeoutMs: 3000 });

describe('outbound request guard (override off)', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${port}/`],
    ['private 10/8', () => 'http://10.0.0.1/'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${port}/`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/`],
    ['a name resolving to loopback', () => `http://localhost:${port}/`],
    ['a decimal IPv4 spelling', () => `http://2130706433:${port}/`],
  ])('refuses %s', async (_what, url) => {
    const before = hits;
    await expect(guarded(url())).rejects.toBeInstanceOf(TargetNotAllowedError);
    expect(hits).toBe(before);
  });

  it('with the override on reaches the same server; redirects are returned, not followed', async () => {
    const ok = await guardedFetch(`http://localhost:${port}/`, {}, { allowPrivate: true });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('reached');
    const redirect = await guardedFetch(`http://127.0.0.1:${port}/redirect`, {}, { allowPrivate: true });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('http://169.254.169.254/');
  });

  it('enforces the size limit and the timeout', async () => {
    const big = await guardedFetch(`http://127.0.0.1:${port}/big`, {}, { allowPrivate: true, maxBytes: 1024 })
      .then((r) => r.arrayBuffer())
      .catch((e: unknown) => e);
    expect(big).toBeInstanceOf(TargetTooLargeError);
    const t0 = Date.now();
    await expect(
      guardedFetch(`http://127.0.0.1:${port}/slow`, {}, { allowPrivate: true, timeoutMs: 300 }),
    ).rejects.toBeInstanceOf(TargetTimeoutError);
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});
