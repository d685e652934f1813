import { describe, expect, it } from 'vitest';
import { chatbotTurnDone } from '../support/chatbot.ts';
import { api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';
import { outbox } from '../support/outbox.ts';
import { openStream } from '../support/sse-client.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Structured extraction through the public interface: the simulator's inbound messages and the fake
 * model, which answers a tool call with the JSON after the last `TOOL:` in the customer's messages.
 */
const BASE = '/api/v1/chatbot';
type Tenant = Awaited<ReturnType<typeof newTenant>>;

let seq = 0;
const customer = () =>
  `1666${String(Date.now() % 1_000_000).padStart(6, '0')}${String(seq++ % 100).padStart(2, '0')}`;

const inbound = (sessionId: string, from: string, text: string) =>
  simInbound({ sessionId, from, name: 'Customer', text });

const turnDone = (t: Tenant, sessionId: string, messageId: string) =>
  chatbotTurnDone(t.id, sessionId, messageId);

const booking = (when: string) =>
  `TOOL:${JSON.stringify({ found: true, type: 'booking', name: 'Asha', phone: '919811112222', what: 'haircut', when, confidence: 0.9 })}`;

async function records(t: Tenant, sessionKey = 'global') {
  const r = await t.api.get(`${BASE}/extracted-data?sessionKey=${sessionKey}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.records as Array<Record<string, any>>;
}

const STREAM = `${BASE}/extracted-stream`;
const streamOf = (t: Tenant, opt: { lastEventId?: string; query?: string } = {}) =>
  openStream('', { path: STREAM, token: t.token, ...opt });

describe('structured extraction', () => {
  it('toggle validates and answers the key; the route needs a token', async () => {
    const t = await newTenant('ext-toggle');
    const on = await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'clinic', enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ success: true, sessionKey: 'clinic', enabled: true });
    const star = await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: '*', enabled: true });
    expect(star.body.sessionKey).toBe('global');
    const noKey = await t.api.post(`${BASE}/json-extraction/toggle`, { enabled: true });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.message).toMatch(/^sessionKey\b/);
    const bad = await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^enabled\b/);
    expect((await api().get(`${BASE}/extracted-data`)).status).toBe(401);
    expect((await api().get(STREAM)).status).toBe(401);
    expect((await api().get(`${STREAM}?key=not-a-token`)).status).toBe(401);
    expect((await api().get(`${STREAM}?key=wsm_unknown`)).status).toBe(401);
    // An API key works as the token does (EventSource clients pass it in the query).
    const byKey = await openStream('', { path: STREAM, query: `?key=${t.apiKey}` });
    expect(byKey.status).toBe(200);
    await byKey.connected;
    await byKey.close();
    expect(
      (await api().post(`${BASE}/json-extraction/toggle`, { sessionKey: 'global', enabled: true })).status,
    ).toBe(401);
  });

  it('a booking becomes one record; a changed time updates it (version 2); other tenants see nothing', async () => {
    const a = await newTenant('ext-a');
    const b = await newTenant('ext-b');
    const s = await readySession(a.api);
    await readySession(b.api);
    expect((await a.api.post(`${BASE}/toggle`, { mobid: 'global', enabled: true })).status).toBe(200);
    expect(
      (await a.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'global', enabled: true })).status,
    ).toBe(200);
    await b.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'global', enabled: true });
    const recv = await startReceiver();
    const cfg = await a.api.post('/api/webhook/config', {
      webhookUrl: recv.url,
      secretToken: 'ext-secret-0123456789',
      approvedDomains: '127.0.0.1',
      enabled: true,
    });
    expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
    const from = customer();
    const streamA = await streamOf(a);
    const streamB = await streamOf(b);
    const streamOther = await streamOf(a, { query: '?sessionKey=salon' });
    expect(streamA.status).toBe(200);
    expect(streamA.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await Promise.all([streamA.connected, streamB.connected, streamOther.connected]);

    const m1 = await inbound(
      s.sessionId,
      from,
      `Book a haircut Friday 10am ${booking('2026-11-27T10:00:00+05:30')}`,
    );
    await turnDone(a, s.sessionId, m1);
    const first = await waitFor(
      async () => {
        const r = await records(a);
        return r.length ? r : undefined;
      },
      10_000,
      'the first record',
    );
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      type: 'booking',
      name: 'Asha',
      phone: '919811112222',
      what: 'haircut',
      when: '2026-11-27T10:00:00+05:30',
      status: 'new',
      version: 1,
      confidence: 0.9,
      sessionId: s.sessionId,
      sourceMessageIds: [m1],
    });
    const e1 = await waitFor(async () => streamA.events[0], 10_000, 'the first NEW_EXTRACTION event');
    expect(e1.json).toEqual({ type: 'NEW_EXTRACTION', records: [first[0]] });
    expect(e1.id).toMatch(/^\d{13}#/);
    // The chatbot still replied.
    await waitFor(
      async () => (await outbox(s.sessionId)).some((m) => m.to.startsWith(from)),
      10_000,
      'the reply',
    );

    const m2 = await inbound(
      s.sessionId,
      from,
      `Make it 4pm instead ${booking('2026-11-27T16:00:00+05:30')}`,
    );
    await turnDone(a, s.sessionId, m2);
    const second = await waitFor(
      async () => {
        const r = await records(a);
        return r[0]?.version === 2 ? r : undefined;
      },
      10_000,
      'the updated record',
    );
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({
      recordId: must(first[0], 'first[0]').recordId,
      when: '2026-11-27T16:00:00+05:30',
      status: 'changed',
      sourceMessageIds: [m1, m2],
    });
    const e2 = await waitFor(async () => streamA.events[1], 10_000, 'the second NEW_EXTRACTION event');
    expect(e2.json.type).toBe('NEW_EXTRACTION');
    expect(e2.json.records).toEqual([second[0]]);
    expect(streamA.events).toHaveLength(2);
    await streamA.close();
    // Resuming after the first event replays the record's change once.
    const resumed = await streamOf(a, { lastEventId: e1.id });
    await resumed.connected;
    expect(resumed.events.map((e) => e.json.records[0].version)).toEqual([2]);
    await resumed.close();
    // Each turn's chatbot.reply webhook carries the record that turn made or changed.
    const hook1 = await waitFor(async () => recv.of('chatbot.reply', m1)[0], 10_000, 'chatbot.reply 1');
    expect(hook1.json.extracted).toEqual(first[0]);
    const hook2 = await waitFor(async () => recv.of('chatbot.reply', m2)[0], 10_000, 'chatbot.reply 2');
    expect(hook2.json.extracted).toEqual(second[0]);
    await recv.close();
    // Neither B nor a stream narrowed to another key saw anything.
    expect(streamB.events).toEqual([]);
    expect(streamOther.events).toEqual([]);
    await Promise.all([streamB.close(), streamOther.close()]);
    // Narrowed by the session's keys, or by a key of no session of it.
    expect(await records(a, s.sessionId)).toHaveLength(1);
    expect(await records(a, s.mobid)).toHaveLength(1);
    expect(await records(a, 'salon')).toHaveLength(0);
    expect(await records(b)).toHaveLength(0);
  });

  it('in pure extractor mode nothing is sent but the record is made; none when the model finds none', async () => {
    const t = await newTenant('ext-pure');
    const s = await readySession(t.api);
    await t.api.post(`${BASE}/pure-extractor`, { enabled: true });
    await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: s.sessionId, enabled: true });
    const quiet = customer();
    const m0 = await inbound(s.sessionId, quiet, 'just saying hello');
    await turnDone(t, s.sessionId, m0);
    const from = customer();
    const m1 = await inbound(
      s.sessionId,
      from,
      `Interested in the gold plan ${'TOOL:{"found":true,"type":"lead","what":"gold plan","when":null}'}`,
    );
    await turnDone(t, s.sessionId, m1);
    const r = await waitFor(
      async () => {
        const x = await records(t);
        return x.length ? x : undefined;
      },
      10_000,
      'the lead',
    );
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ type: 'lead', what: 'gold plan', when: null, status: 'new' });
    expect(await outbox(s.sessionId)).toEqual([]);
    // Both turns' extraction calls are counted (the first found nothing); no reply was sent.
    const usage = await t.api.get(`/api/v1/ai/usage/${s.sessionId}`);
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.usage).toMatchObject({ aiUsageCount: 2, totalMessages: 0 });
    expect(usage.body.usage.totalCreditsUsed).toBeGreaterThan(0);
  });

  it('an invalid tool answer is dropped', async () => {
    const t = await newTenant('ext-invalid');
    const s = await readySession(t.api);
    await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'global', enabled: true });
    const m = await inbound(
      s.sessionId,
      customer(),
      'TOOL:{"found":true,"type":"booking","when":"next friday"}',
    );
    await turnDone(t, s.sessionId, m);
    expect(await records(t)).toEqual([]);
  });
});
