import { describe, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import { sendJson } from '#shared/queue/send';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';

describe('sessions with the simulator', () => {
  it('creates a session that links and becomes READY with mobid and mobile number', async () => {
    const t = await newTenant();
    const created = await t.api.post('/api/sessions', { name: 'front desk' });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(created.body.session.status).toBe('REGISTERING');
    expect(created.body.session.method).toBe('qr');
    expect(created.body.session.sessionId).toMatch(/^qr_\d{13}_[0-9a-f]{8}$/);

    const id = created.body.session.sessionId;
    const ready = await waitFor(async () => {
      const r = await t.api.get(`/api/sessions/${id}`);
      return r.body.session.status === 'READY' ? r.body.session : undefined;
    });
    expect(ready.mobid).toMatch(/^\d{15}$/);
    expect(ready.mobile_number).toMatch(/^\d{10,15}$/);
    expect(ready.dbStatus).toBe('active');

    // A mobid and a mobile number resolve to the same session.
    const byMobid = await t.api.get(`/api/sessions/${ready.mobid}`);
    const byMobile = await t.api.get(`/api/sessions/${ready.mobile_number}`);
    expect(byMobid.body.session.sessionId).toBe(id);
    expect(byMobile.body.session.sessionId).toBe(id);

    const list = await t.api.get('/api/sessions');
    expect(list.status).toBe(200);
    expect(list.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([id]);
  });

  it('deletes a session: logged out, inactive, and deleting twice is harmless', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const del = await t.api.delete(`/api/sessions/${s.sessionId}`);
    expect(del.status).toBe(200);
    expect(del.body.success).toBe(true);
    const again = await t.api.delete(`/api/sessions/${s.sessionId}`);
    expect(again.status).toBe(200);
    const info = await waitFor(async () => {
      const r = await t.api.get(`/api/sessions/${s.sessionId}`);
      return r.body.session.status === 'LOGGED_OUT' ? r.body.session : undefined;
    });
    expect(info.dbStatus).toBe('inactive');
  });

  it('answers 404 for an unknown session and 400 for an invalid method', async () => {
    const t = await newTenant();
    const unknown = await t.api.get('/api/sessions/qr_1_deadbeef');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      success: false,
      error: { code: 'SESSION_NOT_FOUND', message: expect.any(String) },
    });
    const bad = await t.api.post('/api/sessions', { method: 'carrier-pigeon' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.message).toContain('method');
    const phoneless = await t.api.post('/api/sessions', { method: 'phone' });
    expect(phoneless.status).toBe(400);
    expect(phoneless.body.error.message).toContain('phoneNumber');
  });

  it('links by pairing code when the method is phone', async () => {
    const t = await newTenant();
    const created = await t.api.post('/api/sessions', { method: 'phone', phoneNumber: '+91 98765 43210' });
    expect(created.status).toBe(201);
    const s = await waitFor(async () => {
      const r = await t.api.get(`/api/sessions/${created.body.session.sessionId}`);
      return r.body.session.status === 'READY' ? r.body.session : undefined;
    });
    expect(s.mobile_number).toBe('919876543210');
  });

  it('serves the QR as JSON while linking and PNG is refused once linked', async () => {
    const t = await newTenant();
    const created = await t.api.post('/api/sessions', {});
    const id = created.body.session.sessionId;
    const qr = await waitFor(async () => {
      const r = await t.api.get(`/api/sessions/${id}/qr`, { accept: 'application/json' });
      return r.body.qr ? r.body : r.body.status === 'READY' ? r.body : undefined;
    });
    expect(qr.success).toBe(true);
    expect(['QR_READY', 'READY']).toContain(qr.status);
  });

  it('keeps tenants apart: another tenant cannot see or delete the session', async () => {
    const a = await newTenant('a');
    const b = await newTenant('b');
    const s = await readySession(a.api);
    expect((await b.api.get(`/api/sessions/${s.sessionId}`)).status).toBe(404);
    expect((await b.api.get(`/api/sessions/${s.mobid}`)).status).toBe(404);
    expect((await b.api.delete(`/api/sessions/${s.sessionId}`)).status).toBe(404);
    expect((await b.api.get('/api/sessions')).body.sessions).toEqual([]);
    expect((await api().get('/api/sessions')).status).toBe(401);
  });
});

describe('connection health', () => {
  const statusOf = async (client: ReturnType<typeof api>, id: string) =>
    (await client.get(`/api/sessions/${id}`)).body.session.status as string;

  it('reconnects after the network drops the connection, without a new QR', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const seen = new Set<string>();
    expect((await api().post('/_sim/disconnect', { sessionId: s.sessionId })).status).toBe(200);
    await waitFor(
      async () => {
        const st = await statusOf(t.api, s.sessionId);
        seen.add(st);
        return seen.has('RECONNECTING') && st === 'READY';
      },
      15_000,
      'RECONNECTING then READY',
    );
    expect(seen.has('QR_READY')).toBe(false);
    expect((await t.api.get(`/api/sessions/${s.sessionId}`)).body.session.mobile_number).toBe(
      s.mobile_number,
    );
  });

  it('detects a zombie link (open but silent), probes it and reconnects', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    expect((await api().post('/_sim/freeze', { sessionId: s.sessionId })).status).toBe(200);
    const seen = new Set<string>();
    await waitFor(
      async () => {
        const st = await statusOf(t.api, s.sessionId);
        seen.add(st);
        return seen.has('RECONNECTING') && st === 'READY';
      },
      20_000,
      'zombie detected and link renewed',
    );
    // Messages that arrived while the link was frozen are delivered on the new link.
    const sent = await api().post('/_sim/inbound', {
      sessionId: s.sessionId,
      from: '919800000009',
      text: 'still there?',
    });
    expect(sent.status).toBe(200);
  });
});

describe('fencing', () => {
  it('refuses a state write from a host whose shard lease is older than the last writer', async () => {
    const t = await newTenant();
    const [s, other] = await Promise.all([readySession(t.api, 'fenced'), readySession(t.api, 'marker')]);
    const sessionStatus = async (id: string) => (await t.api.get(`/api/sessions/${id}`)).body.session.status;
    const stale = {
      kind: 'session.status',
      tenantId: t.id,
      sessionId: s.sessionId,
      at: Date.now() + 1000,
      status: 'DISCONNECTED',
      reason: 'written by a host that lost the shard',
      fence: 0,
    };
    // A later write that every consumer would apply if the fence were not checked.
    await sendJson(names.eventsQueue(), stale);
    // The same write for another session under a current lease, sent after it: the local service's
    // one events consumer applies events in the order it receives them, so once this one shows, the
    // stale one has been decided.
    await sendJson(names.eventsQueue(), { ...stale, sessionId: other.sessionId, fence: 1_000_000 });
    await waitFor(
      async () => (await sessionStatus(other.sessionId)) === 'DISCONNECTED',
      10_000,
      'the later write',
    );
    expect(await sessionStatus(s.sessionId)).toBe('READY');

    // The same event under a newer lease is applied (control).
    await sendJson(names.eventsQueue(), { ...stale, fence: 1_000_000, at: Date.now() + 2000 });
    await waitFor(async () => (await sessionStatus(s.sessionId)) === 'DISCONNECTED');
  });
});
