import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { commandQueue, queueName } from '#shared/aws/resources';
import { sendJson } from '#shared/queue/send';
import { shardOf } from '#shared/sessions/shard';
import { waitFor } from '../support/client.ts';
import { jsonClient } from '../support/http.ts';
import { spawnApi, spawnScript, stopProcess } from '../support/processes.ts';

const SHARDS = 2;

/** Two connection hosts on one machine; the one holding the session is SIGKILLed mid-stream. */
describe('failover between connection hosts', () => {
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await stopProcess(p);
  });

  it('delivers commands sent before and during the outage exactly once, in order, after takeover', async () => {
    const prefix = `fo${Date.now() % 1_000_000}`;
    const common = {
      RESOURCE_PREFIX: prefix,
      SHARD_COUNT: String(SHARDS),
      LEASE_TTL_MS: '3000',
      SEND_INTERVAL_MS: '0',
    };
    const api = await spawnApi({ ...common, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
    procs.push(api.proc);
    const hostEnv = { ...common, SIM_NETWORK_URL: api.baseUrl };

    const hostA = spawnScript('connection-host/main.ts', { ...hostEnv, HOST_ID: 'host-a' });
    procs.push(hostA);
    const anon = jsonClient(api.baseUrl);
    const admin = (await anon.post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })).body.token;
    const adminApi = jsonClient(api.baseUrl, admin);
    // Host A takes every shard first; host B then waits for leases to fall free.
    const created = await waitFor(
      async () => {
        const r = await adminApi.post('/api/sessions', { name: 'failover' });
        return r.status === 201 ? r.body.session : undefined;
      },
      20_000,
      'session created',
    );
    const sessionId: string = created.sessionId;
    const ready = await waitFor(
      async () => {
        const r = await adminApi.get(`/api/sessions/${sessionId}`);
        return r.body.session?.status === 'READY' ? r.body.session : undefined;
      },
      20_000,
      'READY on host A',
    );
    const hostB = spawnScript('connection-host/main.ts', { ...hostEnv, HOST_ID: 'host-b' });
    procs.push(hostB);

    const queue = queueName(prefix, commandQueue(shardOf(sessionId, SHARDS)));
    const send = async (i: number) => {
      const commandId = `cmd_${randomUUID()}`;
      await sendJson(
        queue,
        {
          kind: 'send',
          commandId,
          tenantId: 'admin',
          sessionId,
          issuedAt: Date.now(),
          messageId: `FO${i.toString().padStart(3, '0')}${randomUUID().slice(0, 6)}`,
          to: '919800000001',
          content: { kind: 'text', text: `message ${i}` },
        },
        { groupId: sessionId, dedupId: commandId },
      );
    };
    const outbox = async () =>
      (await anon.get(`/_sim/outbox?sessionId=${sessionId}`)).body.messages as Array<{ text: string }>;

    for (let i = 0; i < 3; i++) await send(i);
    await waitFor(
      async () => ((await outbox()).length === 3 ? true : undefined),
      15_000,
      'first 3 sent by host A',
    );

    const hostAGone = new Promise((r) => hostA.once('exit', r));
    hostA.kill('SIGKILL');
    await hostAGone;
    const killedAt = Date.now();
    for (let i = 3; i < 8; i++) await send(i);

    const texts = await waitFor(
      async () => {
        const o = await outbox();
        return o.length >= 8 ? o.map((m) => m.text) : undefined;
      },
      60_000,
      'all 8 delivered after takeover',
    );
    const failoverMs = Date.now() - killedAt;
    expect(texts).toEqual(Array.from({ length: 8 }, (_, i) => `message ${i}`));
    // No late duplicates either.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await outbox()).length).toBe(8);
    expect(failoverMs).toBeLessThan(60_000);

    // Auth state survived: the session came back READY on host B without a new QR.
    const after = await adminApi.get(`/api/sessions/${sessionId}`);
    expect(after.body.session.status).toBe('READY');
    expect(after.body.session.mobile_number).toBe(ready.mobile_number);
  }, 120_000);
});
