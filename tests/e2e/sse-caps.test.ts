import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { must } from '../support/must.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';
import { openStream } from '../support/sse-client.ts';

/**
 * The caps on open streams and on what one request replays (docs/events.md, "Fair sharing"),
 * against an API process of its own started with small caps: 2 streams per tenant, 3 in all, 5
 * events replayed per request. The sessions live on the main service; the streams read the store.
 */
let proc: ChildProcess | undefined;
let base = '';
beforeAll(async () => {
  const started = await spawnApi({
    WITH_HOST: 'false',
    SIM_NETWORK_URL: '',
    PUBLIC_BASE_URL: '',
    SSE_MAX_CONNECTIONS: '3',
    SSE_MAX_CONNECTIONS_PER_TENANT: '2',
    SSE_REPLAY_MAX: '5',
  });
  proc = started.proc;
  base = started.baseUrl;
}, 60_000);
afterAll(async () => {
  if (proc) await stopProcess(proc);
});

type Stream = Awaited<ReturnType<typeof openStream>>;

async function refusedWith429(s: Stream) {
  expect(s.status).toBe(429);
  expect(Number(s.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('SSE caps', () => {
  it('a tenant over its cap gets 429 with Retry-After while another tenant connects; the overall cap holds', async () => {
    const [a, b, c] = await Promise.all([newTenant('cap-a'), newTenant('cap-b'), newTenant('cap-c')]);
    const open = (portalId: string) => openStream(portalId, { base });
    const a1 = await open(a.portalId);
    const a2 = await open(a.portalId);
    try {
      expect([a1.status, a2.status]).toEqual([200, 200]);
      await Promise.all([a1.connected, a2.connected]);
      // The third of tenant a: refused, in the JSON error shape.
      const third = await fetch(`${base}/api/public/portal/${a.portalId}/stream`);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await third.json()).toEqual({
        success: false,
        error: { code: 'RATE_LIMITED', message: expect.stringContaining('SSE_MAX_CONNECTIONS_PER_TENANT') },
      });
      // Tenant b still gets in: the third stream of the process.
      const b1 = await open(b.portalId);
      try {
        expect(b1.status).toBe(200);
        await b1.connected;
        // The process is full: tenant c, under its own cap, is refused by the overall one.
        const c1 = await open(c.portalId);
        await refusedWith429(c1);
        await c1.close();
        const full = await fetch(`${base}/api/public/portal/${c.portalId}/stream`);
        expect(full.status).toBe(429);
        const refused = (await full.json()) as { error: { message: string } };
        expect(refused.error.message).toContain('SSE_MAX_CONNECTIONS)');
      } finally {
        await b1.close();
      }
      // A stream that ends gives its place back.
      await a2.close();
      const again = await waitFor(
        async () => {
          const s = await open(a.portalId);
          if (s.status === 200) return s;
          await s.close();
          return undefined;
        },
        10_000,
        'a place for tenant a again',
      );
      expect(again.status).toBe(200);
      await again.close();
    } finally {
      await a1.close();
      await a2.close();
    }
  }, 30_000);

  it('a resume replays at most SSE_REPLAY_MAX events, ends, and the next resume sends the rest, then live', async () => {
    const t = await newTenant('replay-cap');
    const s = await readySession(t.api);
    const from = `${Date.now() - 1}#start`;
    const texts = Array.from({ length: 8 }, (_, i) => `replayed ${i}`);
    for (const text of texts) await simInbound({ sessionId: s.sessionId, from: '15550006666', text });
    await waitFor(
      async () => (await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}`)).body.count >= 8,
      10_000,
      '8 messages stored',
    );
    const first = await openStream(t.portalId, { base, lastEventId: from });
    expect(first.status).toBe(200);
    await waitFor(
      async () => first.comments.some((c) => c.startsWith('replay limit reached')),
      10_000,
      'the cut',
    );
    await first.close();
    // In the feed's order (when each was stored: two stored in one transaction may swap).
    expect(first.events).toHaveLength(5);
    const ids = (events: typeof first.events) => events.map((e) => must(e.id, 'e.id'));
    expect(ids(first.events)).toEqual([...ids(first.events)].sort());
    expect(first.comments).not.toContain('connected');

    const rest = await openStream(t.portalId, {
      base,
      lastEventId: must(first.events.at(-1), 'first.events.at(-1)').id,
    });
    try {
      expect(rest.status).toBe(200);
      await rest.connected;
      expect(rest.events).toHaveLength(3);
      const [restFirst] = ids(rest.events);
      const firstLast = ids(first.events).at(-1);
      expect(must(restFirst, 'the first resumed id') > must(firstLast, 'the last first id')).toBe(true);
      // Together: every message once.
      expect([...first.events, ...rest.events].map((e) => e.json.message).sort()).toEqual([...texts].sort());
      await simInbound({ sessionId: s.sessionId, from: '15550006666', text: 'live after the resume' });
      await waitFor(async () => rest.events.length === 4, 10_000, 'the live message');
      expect(rest.events.at(-1)?.json.message).toBe('live after the resume');
    } finally {
      await rest.close();
    }
  }, 40_000);
});
