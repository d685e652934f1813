import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  checkTargetUrl,
  guardedFetch,
  guardedStatus,
  TargetNotAllowedError,
  TargetTooLargeError,
  TargetUnreachableError,
} from './guard.ts';

describe('checkTargetUrl', () => {
  it('refuses IP literals in every spelling the URL parser accepts', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      expect(() => checkTargetUrl(url, false), url).toThrow(TargetNotAllowedError);
    }
  });

  it('refuses other schemes and lets public hosts through', () => {
    expect(() => checkTargetUrl('file:///etc/passwd', false)).toThrow(TargetNotAllowedError);
    expect(() => checkTargetUrl('ftp://example.com/', false)).toThrow(TargetNotAllowedError);
    expect(checkTargetUrl('https://example.com/hook', false).hostname).toBe('example.com');
    expect(checkTargetUrl('http://127.0.0.1/', true).hostname).toBe('127.0.0.1');
  });
});

describe('guardedFetch connections', () => {
  it('reuses a checked connection for the next request of the same policy, never for a stricter one', async () => {
    let connections = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
    try {
      for (let i = 0; i < 3; i++) {
        const res = await guardedFetch(url, { method: 'POST', body: `{"n":${i}}` }, { allowPrivate: true });
        expect(await res.text()).toBe('ok');
      }
      expect(connections).toBe(1);
      // The pool of the permissive policy holds a socket to this host; the strict one still refuses it.
      await expect(
        guardedFetch(url, { method: 'POST', body: '{}' }, { allowPrivate: false }),
      ).rejects.toThrow(TargetNotAllowedError);
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('guardedStatus answers the status and headers, reads the body to the end and keeps the connection', async () => {
    let connections = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(req.url === '/busy' ? 503 : 200, { 'retry-after': '7' });
        res.end('x'.repeat(req.url === '/big' ? 5_000 : 10));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://localhost:${(server.address() as AddressInfo).port}`;
    const opts = { allowPrivate: true, maxBytes: 1_000 };
    try {
      const ok = await guardedStatus(`${base}/hook`, { method: 'POST', body: '{}' }, opts);
      expect(ok.status).toBe(200);
      const busy = await guardedStatus(`${base}/busy`, { method: 'POST', body: '{}' }, opts);
      expect([busy.status, busy.headers['retry-after']]).toEqual([503, '7']);
      expect(connections).toBe(1);
      // A body over the limit is cut off: the status still counts, the connection does not survive.
      expect((await guardedStatus(`${base}/big`, { method: 'POST', body: '{}' }, opts)).status).toBe(200);
      await guardedStatus(`${base}/hook`, { method: 'POST', body: '{}' }, opts);
      expect(connections).toBe(2);
      await expect(guardedFetch(`${base}/big`, {}, opts).then((r) => r.text())).rejects.toThrow(
        TargetTooLargeError,
      );
      await expect(guardedStatus(`${base}/hook`, {}, { allowPrivate: false })).rejects.toThrow(
        TargetNotAllowedError,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('answers an unreachable target as UPSTREAM_UNAVAILABLE (503), keeping the socket error', async () => {
    // A port that was just free: nothing listens there.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const err = await guardedFetch(
      `http://127.0.0.1:${port}/token`,
      { method: 'POST' },
      { allowPrivate: true },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect(err).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: { code: 'ECONNREFUSED' } });
  });
});
