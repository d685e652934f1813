import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GetQueueUrlCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import type { HostEvent } from '#shared/events/types';
import { jsonClient } from '../support/http.ts';
import { must } from '../support/must.ts';
import { spawnScript, stopProcess } from '../support/processes.ts';
import { openStream } from '../support/sse-client.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * `npm start` killed with SIGKILL in the middle of an inbound burst, then started again on the same
 * data directory: every inbound message it acknowledged is stored, on the stream, and reaches the
 * webhook, with a delivered record, none left retrying. The burst is put on the events queue as the connection host
 * does it (SendMessageBatch; an answered batch is what the host acknowledges to the network): the
 * simulated network lives in the killed process, so its own acknowledgement promises nothing.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'wsm-crash-'));
const procs: ChildProcess[] = [];
afterAll(async () => {
  for (const p of procs) await stopProcess(p);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  proc: ChildProcess;
  baseUrl: string;
  env: Record<string, string>;
}

async function startPersistent(): Promise<Started> {
  const proc = spawnScript('tests/support/persistent-service.ts', {
    DATA_DIR: dataDir,
    // Its own simulated network and URLs, not the shared service's.
    SIM_NETWORK_URL: '',
    PUBLIC_BASE_URL: '',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Retries a few seconds apart: some are waiting on the queue when the process dies.
    WEBHOOK_RETRY_BASE_MS: '2000',
    WEBHOOK_RETRY_MAX_DELAY_MS: '4000',
  });
  procs.push(proc);
  const lines = createInterface({ input: must(proc.stdout, 'proc.stdout') });
  const ready = await new Promise<{ baseUrl: string; env: Record<string, string> }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('service did not start in 60 s')), 60_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{"baseUrl"')) return;
      clearTimeout(t);
      resolve(JSON.parse(line));
    });
    proc.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { proc, ...ready };
}

const sqsOf = (env: Record<string, string>) =>
  new SQSClient({
    endpoint: env.AWS_ENDPOINT_URL_SQS,
    region: env.AWS_REGION,
    credentials: {
      accessKeyId: must(env.AWS_ACCESS_KEY_ID, 'env.AWS_ACCESS_KEY_ID'),
      secretAccessKey: must(env.AWS_SECRET_ACCESS_KEY, 'env.AWS_SECRET_ACCESS_KEY'),
    },
  });

async function until<T>(fn: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const BURST = 180;

describe('npm start killed mid-burst', () => {
  it('loses nothing it acknowledged: every message stored, on the stream and delivered to the webhook after a restart', async () => {
    // Every third message's first attempt is refused: its retry waits on the queue.
    const refusedOnce = new Set<string>();
    const hook = await startReceiver(
      (r) => {
        const id = r.json?.message_id as string | undefined;
        if (r.json?.event !== 'message.inbound' || !id) return 200;
        if (Number(id.slice(-3)) % 3 === 0 && !refusedOnce.has(id)) {
          refusedOnce.add(id);
          return 503;
        }
        return 200;
      },
      { delayMs: 15 },
    );
    try {
      let svc = await startPersistent();
      const admin = jsonClient(svc.baseUrl);
      const adminToken = (await admin.post('/api/auth/token', { apiKey: svc.env.ADMIN_API_KEY })).body.token;
      const created = await jsonClient(svc.baseUrl, adminToken).post('/api/admin/tenants', { name: 'crash' });
      expect(created.status).toBe(201);
      const tenantId = created.body.tenant.id as string;
      const token = (await admin.post('/api/auth/token', { apiKey: created.body.apiKey })).body
        .token as string;
      let api = jsonClient(svc.baseUrl, token);
      expect(
        (
          await api.post('/api/webhook/config', {
            webhookUrl: hook.url,
            approvedDomains: ['127.0.0.1'],
            enabled: true,
          })
        ).status,
      ).toBe(200);
      const sessionId = (await api.post('/api/sessions', { name: 'crash' })).body.session.sessionId as string;
      await until(
        async () => (await api.get(`/api/sessions/${sessionId}`)).body.session?.status === 'READY',
        15_000,
        'session READY',
      );

      // The burst, as the host sends it: ten events a request, as fast as they are answered.
      const sqs = sqsOf(svc.env);
      const queue = must(
        (await sqs.send(new GetQueueUrlCommand({ QueueName: names.eventsQueue() }))).QueueUrl,
        '(await sqs.send(new GetQueueUrlCommand({ QueueName: names.eventsQueue() }))).QueueUrl',
      );
      const acknowledged: string[] = [];
      const t0 = Date.now();
      const event = (n: number): HostEvent => ({
        kind: 'message.inbound',
        tenantId,
        sessionId,
        at: t0 + n,
        message: {
          id: `CRASH${String(n).padStart(3, '0')}`,
          chatId: `1555000${String(n % 7).padStart(4, '0')}`,
          senderPhone: `1555000${String(n % 7).padStart(4, '0')}`,
          senderName: 'Burst',
          kind: 'text',
          text: `burst message ${n}`,
          timestampMs: t0 + n,
        },
      });
      const send = async (from: number) => {
        const batch = Array.from({ length: 10 }, (_, i) => event(from + i));
        const r = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: queue,
            Entries: batch.map((e, i) => ({ Id: String(i), MessageBody: JSON.stringify(e) })),
          }),
        );
        const ok = new Set((r.Successful ?? []).map((s) => Number(s.Id)));
        batch.forEach((e, i) => {
          if (ok.has(i) && e.kind === 'message.inbound') acknowledged.push(e.message.id);
        });
      };
      // The first half, then until the webhook has some of it (and has refused some first attempts).
      for (let n = 0; n < BURST / 2; n += 10) await send(n);
      await until(
        async () => hook.requests.filter((r) => r.status === 503).length >= 5 && hook.requests.length >= 30,
        30_000,
        'the first deliveries',
      );
      // The second half, killed half-way through it: nothing flushed or closed.
      for (let n = BURST / 2; n < BURST; n += 10) {
        await send(n);
        if (n >= (BURST * 3) / 4) break;
      }
      svc.proc.kill('SIGKILL');
      sqs.destroy();
      await new Promise((r) =>
        svc.proc.exitCode !== null || svc.proc.signalCode ? r(null) : svc.proc.once('exit', r),
      );
      const deliveredBeforeKill = new Set(
        hook.requests.filter((r) => r.status < 300).map((r) => r.json?.message_id),
      );
      // The kill came while the work was under way, not before or after it.
      expect(deliveredBeforeKill.size).toBeGreaterThan(0);
      expect(acknowledged.filter((id) => !deliveredBeforeKill.has(id)).length).toBeGreaterThan(0);

      svc = await startPersistent();
      api = jsonClient(svc.baseUrl, token);
      const delivered = () =>
        new Set(
          hook.requests
            .filter((r) => r.status < 300 && r.json?.event === 'message.inbound')
            .map((r) => r.json.message_id as string),
        );
      await until(
        async () => acknowledged.every((id) => delivered().has(id)),
        90_000,
        'every acknowledged message delivered to the webhook',
      ).catch((err: Error) => {
        const missing = acknowledged.filter((id) => !delivered().has(id));
        throw new Error(`${err.message}: ${missing.length} of ${acknowledged.length} missing`);
      });

      const stored = await until(
        async () => {
          const r = await api.get('/view/messages/v1?limit=500');
          const ids = new Set((r.body.messages as Array<{ id: string }>).map((m) => m.id));
          return acknowledged.every((id) => ids.has(id)) ? ids : undefined;
        },
        30_000,
        'every acknowledged message stored',
      );
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);

      // The stream, resumed from before the burst, replays every one of them, each once.
      const stream = await openStream(created.body.tenant.portal_id, {
        base: svc.baseUrl,
        lastEventId: `${String(t0 - 60_000).padStart(13, '0')}#before`,
      });
      try {
        await stream.connected;
        const streamed = stream.events.map((e) => must(e.id, 'e.id').slice(14));
        expect(acknowledged.filter((id) => !streamed.includes(id))).toEqual([]);
        expect(new Set(streamed).size).toBe(streamed.length);
      } finally {
        await stream.close();
      }

      // Each has its delivery record, delivered; none is left pending, sending or retrying.
      const records = await until(
        async () => {
          const r = await api.get('/api/webhook/deliveries?limit=200');
          const inbound = (
            r.body.deliveries as Array<{ event: string; status: string; payload: any }>
          ).filter((d) => d.event === 'message.inbound');
          return inbound.every((d) => d.status === 'delivered') && inbound.length >= acknowledged.length
            ? inbound
            : undefined;
        },
        30_000,
        'every delivery record delivered',
      );
      const recorded = new Set(records.map((d) => d.payload.message_id as string));
      expect(acknowledged.filter((id) => !recorded.has(id))).toEqual([]);
    } finally {
      await hook.close();
    }
  }, 240_000);
});
