import { describe, expect, it } from 'vitest';
import { api, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';

/** What the console reads and changes about a session, through the public API (docs/sessions.md). */
describe('session settings, status history and message media', () => {
  it('renames a session; refuses an empty, unknown or too long change; another tenant cannot see or change it', async () => {
    const t = await newTenant();
    const other = await newTenant();
    const s = await readySession(t.api, 'front desk');

    const renamed = await t.api.patch(`/api/sessions/${s.mobid}`, { name: '  Reception  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.session).toMatchObject({
      sessionId: s.sessionId,
      name: 'Reception',
      status: 'READY',
    });
    expect((await t.api.get(`/api/sessions/${s.sessionId}`)).body.session.name).toBe('Reception');

    for (const body of [{}, { nickname: 'x' }, { name: '' }, { name: 'x'.repeat(101) }]) {
      const bad = await t.api.patch(`/api/sessions/${s.sessionId}`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toEqual(expect.any(String));
    }
    expect((await other.api.patch(`/api/sessions/${s.sessionId}`, { name: 'mine' })).status).toBe(404);
    expect((await other.api.get(`/api/sessions/${s.sessionId}/history`)).status).toBe(404);

    await t.api.delete(`/api/sessions/${s.sessionId}`);
    expect((await t.api.patch(`/api/sessions/${s.sessionId}`, { name: 'again' })).status).toBe(409);
  });

  it('keeps the status changes: linking then READY, then a dropped link and its reconnect', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const history = async () =>
      (await t.api.get(`/api/sessions/${s.sessionId}/history`)).body.changes as Array<{
        status: string;
        reason: string | null;
        at: string;
      }>;
    const linked = await waitFor(async () => {
      const h = await history();
      return h[0]?.status === 'READY' ? h : undefined;
    });
    expect(linked.map((c) => c.status)).toContain('QR_READY');
    expect(Date.parse(must(linked[0], 'linked[0]').at)).toBeGreaterThan(Date.now() - 60_000);

    // The network drops the link; the host reconnects it: RECONNECTING, then READY again, newest first.
    expect((await api().post('/_sim/disconnect', { sessionId: s.sessionId })).status).toBe(200);
    const again = await waitFor(async () => {
      const h = await history();
      return h[0]?.status === 'READY' && h.some((c) => c.status === 'RECONNECTING') ? h : undefined;
    }, 20_000);
    const times = again.map((c) => Date.parse(c.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("serves a message's stored media to its tenant only; a message without media is a 404", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const s = await readySession(t.api);
    const text = await simInbound({ sessionId: s.sessionId, from: '15550001212', text: 'no file here' });
    await messageStored(t.api, text);
    const none = await t.api.get(`/api/sessions/${s.sessionId}/messages/${text}/media`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('no stored media');
    expect((await other.api.get(`/api/sessions/${s.sessionId}/messages/${text}/media`)).status).toBe(404);
    expect((await t.api.get(`/api/sessions/${s.sessionId}/messages/${'x'.repeat(129)}/media`)).status).toBe(
      400,
    );
  });
});
