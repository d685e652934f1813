import { describe, expect, it } from 'vitest';
import { api, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';

/** POST /api/sessions/{sessionId}/reconnect with the simulator driver (the Baileys side: baileys-reconnect.test.ts). */
describe('reconnect endpoint', () => {
  it('reconnects a READY session at once: the command succeeds, the session is READY and messages flow', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);

    const r = await t.api.post(`/api/sessions/${s.mobid}/reconnect`, {});
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toEqual({
      success: true,
      commandId: expect.stringMatching(/^cmd_/),
      status: 'pending',
      sessionId: s.sessionId,
    });
    const cmd = await waitFor(
      async () => {
        const c = (await t.api.get(`/api/commands/${r.body.commandId}`)).body.command;
        return c?.status !== 'pending' ? c : undefined;
      },
      10_000,
      'the reconnect command to finish',
    );
    expect(cmd.status).toBe('succeeded');
    const info = await waitFor(
      async () => {
        const x = (await t.api.get(`/api/sessions/${s.sessionId}`)).body.session;
        return x?.status === 'READY' ? x : undefined;
      },
      10_000,
      'READY after the reconnect',
    );
    expect(info).toMatchObject({ status: 'READY', reconnectAttempt: 0, nextRetryAt: null });

    const sent = await simInbound({
      sessionId: s.sessionId,
      from: '919800000123',
      text: 'after the reconnect',
    });
    await messageStored(t.api, sent);
  });

  it('shows the reconnect state in session info and the list', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const list = (await t.api.get('/api/sessions')).body.sessions;
    expect(list.find((x: { sessionId: string }) => x.sessionId === s.sessionId)).toMatchObject({
      reconnectAttempt: 0,
      nextRetryAt: null,
      lastDisconnect: null,
    });
    // A dropped connection (428): the host reconnects by itself and keeps why the link ended.
    expect((await api().post('/_sim/disconnect', { sessionId: s.sessionId })).status).toBe(200);
    const after = await waitFor(
      async () => {
        const x = (await t.api.get(`/api/sessions/${s.sessionId}`)).body.session;
        return x?.status === 'READY' && x.lastDisconnect ? x : undefined;
      },
      15_000,
      'READY again with the last disconnect',
    );
    expect(after.lastDisconnect).toEqual({ code: null, reason: expect.any(String), at: expect.any(String) });
    expect(after.reconnectAttempt).toBe(0);
  });

  it("answers 404 for an unknown session and for another tenant's, 409 for a deleted one", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const s = await readySession(t.api);

    const unknown = await t.api.post('/api/sessions/qr_0_deadbeef/reconnect', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SESSION_NOT_FOUND');
    const foreign = await other.api.post(`/api/sessions/${s.sessionId}/reconnect`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('SESSION_NOT_FOUND');

    expect((await t.api.delete(`/api/sessions/${s.sessionId}`)).status).toBe(200);
    const deleted = await t.api.post(`/api/sessions/${s.sessionId}/reconnect`, {});
    expect(deleted.status).toBe(409);
    expect(deleted.body).toEqual({
      success: false,
      error: { code: 'CONFLICT', message: expect.stringContaining('create a new session') },
    });
  });
});
