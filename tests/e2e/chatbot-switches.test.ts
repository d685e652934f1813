import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession } from '../support/client.ts';

const BASE = '/api/v1/chatbot';

describe('chatbot switches API', () => {
  it('toggle answers status, message, sessionKey and enabled, with no success key', async () => {
    const t = await newTenant('toggle');
    const on = await t.api.post(`${BASE}/toggle`, { mobid: '919800000002', enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(Object.keys(on.body).sort()).toEqual(['enabled', 'message', 'sessionKey', 'status']);
    expect(on.body).toMatchObject({ status: 'success', sessionKey: '919800000002', enabled: true });
    expect(on.body.message).toMatch(/enabled/i);

    const off = await t.api.post(`${BASE}/toggle`, { mobid: '919800000002', enabled: false });
    expect(off.body).not.toHaveProperty('success');
    expect(off.body).toMatchObject({ status: 'success', enabled: false });
    expect(off.body.message).toMatch(/assistant is paused/i);

    expect((await t.api.post(`${BASE}/toggle`, { mobid: '*', enabled: true })).body.sessionKey).toBe(
      'global',
    );
    for (const [body, field] of [
      [{ enabled: true }, 'mobid'],
      [{ mobid: 'x' }, 'enabled'],
      [{ mobid: 'x', enabled: 'yes' }, 'enabled'],
    ] as const) {
      const r = await t.api.post(`${BASE}/toggle`, body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(new RegExp(`^${field}\\b`));
    }
  });

  it('pure extractor answers success, message and enabled; tenant-wide without a session key', async () => {
    const t = await newTenant('extractor');
    const on = await t.api.post(`${BASE}/pure-extractor`, { enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ success: true, enabled: true, sessionKey: 'global' });
    expect(on.body.message).toMatch(/assistant is paused/i);
    const off = await t.api.post(`${BASE}/pure-extractor`, { enabled: false, sessionKey: 'clinic' });
    expect(off.body).toMatchObject({ success: true, enabled: false, sessionKey: 'clinic' });
    const bad = await t.api.post(`${BASE}/pure-extractor`, { sessionKey: 'global' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^enabled\b/);
  });

  it('a new session starts disabled; the most specific key with a value wins', async () => {
    const t = await newTenant('switches');
    const s = await readySession(t.api);
    const of = async (key: string) => (await t.api.get(`${BASE}/switches?sessionKey=${key}`)).body;

    const fresh = await of(s.sessionId);
    expect(fresh).toMatchObject({ success: true, chatbotEnabled: false, pureExtractor: false });
    expect(fresh.keys).toEqual([s.mobile_number, s.sessionId, s.mobid, 'global']);

    await t.api.post(`${BASE}/toggle`, { mobid: 'global', enabled: true });
    expect((await of(s.mobid)).chatbotEnabled).toBe(true);
    await t.api.post(`${BASE}/toggle`, { mobid: s.mobid, enabled: false });
    // Asked by any of its identifiers, the session's own setting beats global.
    for (const k of [s.sessionId, s.mobid, s.mobile_number])
      expect((await of(k)).chatbotEnabled, k).toBe(false);
    expect((await of('global')).chatbotEnabled).toBe(true);

    await t.api.post(`${BASE}/pure-extractor`, { enabled: true });
    expect((await of(s.sessionId)).pureExtractor).toBe(true);
    await t.api.post(`${BASE}/pure-extractor`, { enabled: false, sessionKey: s.mobile_number });
    expect((await of(s.sessionId)).pureExtractor).toBe(false);
    expect((await of('global')).pureExtractor).toBe(true);
  });

  it('requires a token, and one tenant’s switches never apply to another', async () => {
    const a = await newTenant('switch-a');
    const b = await newTenant('switch-b');
    expect((await api().post(`${BASE}/toggle`, { mobid: 'global', enabled: true })).status).toBe(401);
    expect((await api().post(`${BASE}/pure-extractor`, { enabled: true })).status).toBe(401);
    expect((await api().get(`${BASE}/switches`)).status).toBe(401);

    const s = await readySession(a.api);
    await a.api.post(`${BASE}/toggle`, { mobid: s.mobid, enabled: true });
    // B switching A's session by its identifiers, or globally, changes only B's own settings.
    await b.api.post(`${BASE}/toggle`, { mobid: s.mobid, enabled: false });
    await b.api.post(`${BASE}/pure-extractor`, { enabled: true });
    await b.api.post(`${BASE}/pure-extractor`, { enabled: true, sessionKey: s.sessionId });
    const seenByA = (await a.api.get(`${BASE}/switches?sessionKey=${s.sessionId}`)).body;
    expect(seenByA).toMatchObject({ chatbotEnabled: true, pureExtractor: false });
    const seenByB = (await b.api.get(`${BASE}/switches?sessionKey=${s.mobid}`)).body;
    expect(seenByB).toMatchObject({ chatbotEnabled: false, pureExtractor: true });
  });
});
