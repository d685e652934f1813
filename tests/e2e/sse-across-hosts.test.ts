import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { handler as eventsHandler } from '../../functions/events/handler.ts';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';
import { sqsRecords } from '../support/sqs-records.ts';
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

  it('streams a message stored elsewhere long after its network time (a backlog message)', async () => {
    const t = await newTenant('late');
    const s = await readySession(t.api);
    const stream = await openStream(t.portalId);
    try {
      await stream.connected;
      // The events consumer in this test's process (as a Lambda would be: not the process serving
      // the stream) stores messages the network sent minutes ago, replayed from its offline queue.
      const now = Date.now();
      const late = (n: number) => ({
        tenantId: t.id,
        sessionId: s.sessionId,
        at: now,
        kind: 'message.inbound',
        message: {
          id: `LATE${n}${now}`,
          chatId: '15550005555',
          senderPhone: '15550005555',
          kind: 'text',
          text: `sent ${5 - n} minutes ago`,
          timestampMs: now - (5 - n) * 60_000,
          backlog: true,
        },
      });
      const result = await eventsHandler({ Records: sqsRecords([late(0), late(1)], 'late') });
      expect(result.batchItemFailures).toEqual([]);
      const texts = () => stream.events.map((e) => e.json.message);
      await waitFor(async () => texts().length >= 2, 10_000, 'the late messages on the stream');
      expect(texts()).toEqual(['sent 5 minutes ago', 'sent 4 minutes ago']);
    } finally {
      await stream.close();
    }
  }, 60_000);
});
