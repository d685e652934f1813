import { afterEach, describe, expect, it } from 'vitest';
import { api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { NO_MEDIA } from '../support/message-fixtures.ts';
import { openStream } from '../support/sse-client.ts';

const streams: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of streams.splice(0)) await s.close();
});

async function stream(portalId: string, opt?: Parameters<typeof openStream>[1]) {
  const s = await openStream(portalId, opt);
  streams.push(s);
  expect(s.status).toBe(200);
  await s.connected;
  return s;
}

const inbound = (sessionId: string, text: string, from = '15550002222', name = 'Bob') =>
  simInbound({ sessionId, from, name, text });

const texts = (events: Array<{ json: { message: string } }>) => events.map((e) => e.json.message);

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Waits until the session's history holds `n` messages: they are in the store the feed reads. */
async function stored(t: Tenant, sessionId: string, n: number) {
  await waitFor(
    async () => (await t.api.get(`/view/messages/v1?sessionId=${sessionId}`)).body.count >= n,
    10_000,
    `${n} messages stored`,
  );
}

describe('tenant SSE stream', () => {
  it('delivers an inbound message live with the spec payload and an order-key id', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const live = await stream(t.portalId);
    expect(live.headers.get('content-type')).toContain('text/event-stream');

    await inbound(s.sessionId, 'hello stream');
    await waitFor(async () => live.events.length > 0, 10_000, 'a live event');
    const [e] = live.events;
    expect(e?.id).toMatch(/^\d{13}#.+$/);
    expect(e?.json).toEqual({
      event: 'message:inbound',
      sessionId: s.sessionId,
      sender: '15550002222',
      sender_name: 'Bob',
      type: 'text',
      message: 'hello stream',
      timestamp: expect.any(Number),
      media: NO_MEDIA,
    });
    expect(Math.abs(e?.json.timestamp - Date.now())).toBeLessThan(60_000);
    // The id's time is when the message joined the feed (stored): at or after its network time.
    const joined = Number(e?.id?.slice(0, 13));
    expect(joined).toBeGreaterThanOrEqual(e?.json.timestamp);
    expect(joined - e?.json.timestamp).toBeLessThan(10_000);
  });

  it('resumes with Last-Event-ID: exactly the 5 missed messages, in order, replayed, then live again', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const first = await stream(t.portalId);
    await inbound(s.sessionId, 'before');
    await waitFor(async () => first.events.length === 1, 10_000);
    const lastId = first.events[0]?.id;
    await first.close();

    // Produced while no client is connected, and in the store before the client comes back.
    const missed = ['m1', 'm2', 'm3', 'm4', 'm5'];
    for (const text of missed) await inbound(s.sessionId, text);
    await stored(t, s.sessionId, 1 + missed.length);

    // The server writes `: connected` once the feed is open; what came before it is the replay.
    const resumed = await stream(t.portalId, { lastEventId: lastId });
    expect(texts(resumed.events)).toEqual(missed);
    expect(resumed.events.map((e) => e.beforeConnected)).toEqual(missed.map(() => true));

    // Live again; and none of the missed messages comes a second time, live, before this one.
    await inbound(s.sessionId, 'after');
    await waitFor(async () => texts(resumed.events).includes('after'), 10_000, 'the live message');
    expect(texts(resumed.events)).toEqual([...missed, 'after']);
    expect(resumed.events.at(-1)?.beforeConnected).toBe(false);
    const ids = resumed.events.map((e) => e.id ?? '');
    expect([...ids].sort()).toEqual(ids);

    // The query parameter works the same for clients that cannot set the header.
    const viaQuery = await stream(t.portalId, { query: `?lastEventId=${encodeURIComponent(ids[2] ?? '')}` });
    expect(texts(viaQuery.events)).toEqual(['m4', 'm5', 'after']);
    expect(viaQuery.events.every((e) => e.beforeConnected)).toBe(true);
  });

  it('shares one feed among clients and keeps two tenants apart', async () => {
    const a = await newTenant('a');
    const b = await newTenant('b');
    const [sa, sb] = await Promise.all([readySession(a.api), readySession(b.api)]);
    const a1 = await stream(a.portalId);
    const a2 = await stream(a.portalId);
    const b1 = await stream(b.portalId);

    await inbound(sa.sessionId, 'for tenant a');
    await inbound(sb.sessionId, 'for tenant b');
    await waitFor(async () => a1.events.length && a2.events.length && b1.events.length, 10_000);
    // A second message for each: once it is in, anything else the first one caused is in before it.
    await inbound(sa.sessionId, 'a again');
    await inbound(sb.sessionId, 'b again');
    const has = (events: typeof a1.events, text: string) => texts(events).includes(text);
    await waitFor(
      async () => has(a1.events, 'a again') && has(a2.events, 'a again') && has(b1.events, 'b again'),
      10_000,
      'the second messages',
    );
    expect(texts(a1.events)).toEqual(['for tenant a', 'a again']);
    expect(texts(a2.events)).toEqual(['for tenant a', 'a again']);
    expect(texts(b1.events)).toEqual(['for tenant b', 'b again']);
    expect(a1.events.every((e) => e.json.sessionId === sa.sessionId)).toBe(true);
  });

  it('answers 404 for an unknown portal and 400 for a malformed Last-Event-ID', async () => {
    const t = await newTenant();
    const unknown = await api().get('/api/public/portal/prt_000000000000000000000000/stream');
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    const bad = await api().get(`/api/public/portal/${t.portalId}/stream`, { 'last-event-id': 'nonsense' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });
});
