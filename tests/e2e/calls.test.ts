import { afterEach, describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { listenTo } from '../support/listeners.ts';
import { outbox } from '../support/outbox.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setup() {
  const t = await newTenant('calls');
  const { recv, stream: live } = await listenTo(t, closers);
  return { t, recv, live };
}

const ring = (body: Record<string, unknown>) => api().post('/_sim/call', body);

describe('calls', () => {
  it('reports a call as it rings and is missed: webhook and stream', async () => {
    const { t, recv, live } = await setup();
    const s = await readySession(t.api);
    const from = '919811840001';
    const r = await ring({ sessionId: s.sessionId, from, video: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const callId = r.body.callId as string;
    expect((await ring({ sessionId: s.sessionId, from, status: 'missed', callId })).status).toBe(200);
    const hooks = await waitFor(
      async () => {
        const h = recv.requests.filter((q) => q.json?.event === 'call' && q.json.call_id === callId);
        return h.length === 2 ? h.map((q) => q.json) : undefined;
      },
      10_000,
      'call webhooks',
    );
    expect(hooks.map((h) => h.status)).toEqual(['offer', 'missed']);
    expect(hooks[0]).toMatchObject({
      session_id: s.sessionId,
      mobid: s.mobid,
      from,
      video: true,
      group: false,
      by_session: false,
    });
    expect(hooks[0].timestamp).toBeGreaterThan(1_700_000_000);
    const streamed = await waitFor(
      async () => {
        const e = live.events.filter((x) => x.json.event === 'call' && x.json.call_id === callId);
        return e.length === 2 ? e.map((x) => x.json.status) : undefined;
      },
      10_000,
      'stream call events',
    );
    expect(streamed).toEqual(['offer', 'missed']);
    // Calls ring through: the device declined nothing.
    const activity = await api().get(`/_sim/activity?sessionId=${s.sessionId}`);
    expect(activity.body.rejectedCalls).toEqual([]);
  });

  it('rejectCalls declines the call at the network and sends rejectMessage to the caller', async () => {
    const { t, recv } = await setup();
    const created = await t.api.post('/api/sessions', {
      rejectCalls: true,
      rejectMessage: 'We cannot take calls; please write here.',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const s = await waitFor(
      async () => {
        const r = await t.api.get(`/api/sessions/${created.body.session.sessionId}`);
        return r.body.session?.status === 'READY' ? r.body.session : undefined;
      },
      10_000,
      'READY',
    );
    expect(s).toMatchObject({ rejectCalls: true, rejectMessage: 'We cannot take calls; please write here.' });
    const from = '919811840002';
    const { callId } = (await ring({ sessionId: s.sessionId, from })).body;
    const declined = await waitFor(
      async () => {
        const a = await api().get(`/_sim/activity?sessionId=${s.sessionId}`);
        return a.body.rejectedCalls?.length ? a.body.rejectedCalls : undefined;
      },
      10_000,
      'call declined at the network',
    );
    expect(declined).toMatchObject([{ callId, to: from }]);
    const note = await waitFor(
      async () => (await outbox(s.sessionId)).find((e) => e.to === from),
      10_000,
      'reject message in the outbox',
    );
    expect(note).toMatchObject({ type: 'text', text: 'We cannot take calls; please write here.' });
    const statuses = await waitFor(
      async () => {
        const h = recv.requests.filter((q) => q.json?.event === 'call' && q.json.call_id === callId);
        return h.length === 2 ? h.map((q) => [q.json.status, q.json.by_session]) : undefined;
      },
      10_000,
      'call webhooks',
    );
    expect(statuses).toEqual([
      ['offer', false],
      ['rejected', true],
    ]);

    // Turned off through the update route: the next call rings through.
    const off = await t.api.request('PATCH', `/api/sessions/${s.mobid}`, {
      rejectCalls: false,
      rejectMessage: null,
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.session).toMatchObject({ rejectCalls: false, rejectMessage: null });
    const second = (await ring({ sessionId: s.sessionId, from })).body.callId;
    await waitFor(
      async () => recv.requests.some((q) => q.json?.event === 'call' && q.json.call_id === second),
      10_000,
      'second call webhook',
    );
    await new Promise((r) => setTimeout(r, 500));
    const a = await api().get(`/_sim/activity?sessionId=${s.sessionId}`);
    expect(a.body.rejectedCalls).toHaveLength(1);
  });

  it('settings are validated and tenant-scoped', async () => {
    const [t, other] = await Promise.all([newTenant('calls-a'), newTenant('calls-b')]);
    const bad = await t.api.post('/api/sessions', { rejectCalls: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/rejectCalls/);
    const s = await readySession(t.api);
    const empty = await t.api.request('PATCH', `/api/sessions/${s.sessionId}`, {});
    expect(empty.status).toBe(400);
    const unknown = await t.api.request('PATCH', `/api/sessions/${s.sessionId}`, { rejectCall: true });
    expect(unknown.status).toBe(400);
    const theirs = await other.api.request('PATCH', `/api/sessions/${s.sessionId}`, { rejectCalls: true });
    expect(theirs.status).toBe(404);
    expect((await t.api.get(`/api/sessions/${s.sessionId}`)).body.session.rejectCalls).toBe(false);
    const bogus = await ring({ sessionId: s.sessionId, from: '919811840003', status: 'missed' });
    expect(bogus.status).toBe(400);
  });
});
