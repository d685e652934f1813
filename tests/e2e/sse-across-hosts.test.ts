import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';
import { openStream } from '../support/sse-client.ts';

/**
 * The session lives on the connection host of the main service; the SSE client is connected to a
 * different process of the same deployment. The event still reaches it, and only its tenant's.
 */
describe('tenant SSE across processes', () => {
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await stopProcess(p);
  });

  it('streams an inbound message from a session held elsewhere, isolated per tenant', async () => {
    const other = await spawnApi({ WITH_HOST: 'false', SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
    procs.push(other.proc);
    const a = await newTenant('a');
    const b = await newTenant('b');
    const sa = await readySession(a.api);
    const sb = await readySession(b.api);
    const streamA = await openStream(a.portalId, { base: other.baseUrl });
    const streamB = await openStream(b.portalId, { base: other.baseUrl });
    try {
      expect(streamA.status).toBe(200);
      await Promise.all([streamA.connected, streamB.connected]);
      await api().post('/_sim/inbound', {
        sessionId: sa.sessionId,
        from: '15550003333',
        text: 'for tenant a',
      });
      await api().post('/_sim/inbound', {
        sessionId: sb.sessionId,
        from: '15550004444',
        text: 'for tenant b',
      });
      await waitFor(
        async () => streamA.events.length >= 1 && streamB.events.length >= 1,
        10_000,
        'both streams',
      );
      // A second message for each: once it is in, anything else the first one caused is in before it.
      await api().post('/_sim/inbound', { sessionId: sa.sessionId, from: '15550003333', text: 'a again' });
      await api().post('/_sim/inbound', { sessionId: sb.sessionId, from: '15550004444', text: 'b again' });
      const texts = (s: typeof streamA) => s.events.map((e) => e.json.message);
      await waitFor(
        async () => texts(streamA).includes('a again') && texts(streamB).includes('b again'),
        10_000,
        'the second messages',
      );
      expect(texts(streamA)).toEqual(['for tenant a', 'a again']);
      expect(texts(streamB)).toEqual(['for tenant b', 'b again']);
      expect(streamA.events[0]?.json.sessionId).toBe(sa.sessionId);
    } finally {
      await streamA.close();
      await streamB.close();
    }
  }, 60_000);
});
