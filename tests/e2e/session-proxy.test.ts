import { describe, expect, it } from 'vitest';
import { getSession } from '#shared/sessions/repository';
import { newTenant, readySession, waitFor } from '../support/client.ts';

/**
 * The proxy setting through the API: validated, stored as given, answered masked, a masked password
 * sent back keeps the stored one (only for the same proxy), a change reconnects the session, and
 * another tenant cannot touch it. (The simulator's device does not go through proxies; the traffic
 * itself is tested with Baileys: tests/integration/baileys-proxy.test.ts.)
 */
describe('session proxyUrl', () => {
  it('is validated, stored, answered masked, and a change reconnects the session', async () => {
    const [t, other] = await Promise.all([newTenant('proxy-a'), newTenant('proxy-b')]);
    for (const [proxyUrl, message] of [
      ['ftp://proxy.example.com:21', /scheme ftp: is not a proxy scheme/],
      ['http://proxy.example.com:8080/path?x=1', /no path, query or fragment/],
      ['not a url', /not a valid URL/],
    ] as const) {
      const r = await t.api.post('/api/sessions', { proxyUrl });
      expect(r.status, proxyUrl).toBe(400);
      expect(r.body.error.message).toMatch(/proxyUrl/);
      expect(r.body.error.message).toMatch(message);
    }
    const created = await t.api.post('/api/sessions', { proxyUrl: 'socks5://shop:s3cret@127.0.0.1:1080' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const s = await readySession(t.api).catch(() => undefined); // another session: unaffected
    expect(s?.proxyUrl).toBeNull();
    const id = created.body.session.sessionId as string;
    const info = await t.api.get(`/api/sessions/${id}`);
    expect(info.body.session.proxyUrl).toBe('socks5://shop:********@127.0.0.1:1080');
    expect(JSON.stringify((await t.api.get('/api/sessions')).body)).not.toContain('s3cret');
    expect((await getSession(t.id, id))?.proxyUrl).toBe('socks5://shop:s3cret@127.0.0.1:1080');

    // Sent back masked with another setting: the stored password stays, no reconnect.
    const same = await t.api.request('PATCH', `/api/sessions/${id}`, {
      proxyUrl: 'socks5://shop:********@127.0.0.1:1080',
      rejectCalls: true,
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.commandId).toBeUndefined();
    expect((await getSession(t.id, id))?.proxyUrl).toBe('socks5://shop:s3cret@127.0.0.1:1080');
    // The mask pointed elsewhere: refused, so the stored password never goes to a new host.
    const moved = await t.api.request('PATCH', `/api/sessions/${id}`, {
      proxyUrl: 'socks5://shop:********@proxy.example.net:1080',
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/^proxyUrl: holds a masked secret/);

    // A new proxy: stored, and the session reconnects to use it.
    const changed = await t.api.request('PATCH', `/api/sessions/${id}`, {
      proxyUrl: 'http://shop:n3w@127.0.0.1:3128',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.session.proxyUrl).toBe('http://shop:********@127.0.0.1:3128/');
    expect(changed.body.commandId).toMatch(/^cmd_/);
    await waitFor(
      async () =>
        (await t.api.get(`/api/commands/${changed.body.commandId}`)).body.command?.status === 'succeeded',
      15_000,
      'reconnect applied',
    );
    const cleared = await t.api.request('PATCH', `/api/sessions/${id}`, { proxyUrl: null });
    expect(cleared.body.session.proxyUrl).toBeNull();
    expect((await getSession(t.id, id))?.proxyUrl).toBeUndefined();

    const theirs = await other.api.request('PATCH', `/api/sessions/${id}`, {
      proxyUrl: 'http://x@127.0.0.1:1',
    });
    expect(theirs.status).toBe(404);
    expect((await getSession(t.id, id))?.proxyUrl).toBeUndefined();
  });
});
