import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { feedStats } from '#shared/stream/feed';
import { startService } from '../scripts/local/service.ts';
import { jsonCaller } from '../tests/support/http.ts';
import { runToExit } from './support/run-to-exit.ts';

/**
 * Inbound → webhook and inbound → SSE latency (p50/p99), and server memory per SSE connection,
 * on one local service (simulator network, local DynamoDB/S3/SQS, everything in this process but
 * the SSE clients, which live in a child process).
 *
 * Run: npx tsx bench/webhook-sse.ts [connection counts, default 1000,10000] [messages, default 200]
 */
const COUNTS = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const MESSAGES = Number(process.argv[3] ?? 200);
const FANOUT_MESSAGES = 20;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}
const summary = (v: number[]) => ({ n: v.length, p50: pct(v, 50), p99: pct(v, 99), max: pct(v, 100) });

async function settle() {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(300);
  }
  return process.memoryUsage();
}

async function main() {
  const service = await startService({
    driver: 'simulator',
    env: {
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // One tenant holds every connection of this bench: its caps are lifted (docs/events.md).
      SSE_MAX_CONNECTIONS: '100000',
      SSE_MAX_CONNECTIONS_PER_TENANT: '100000',
    },
  });
  const base = service.baseUrl;
  const call = async (method: string, path: string, token?: string, body?: unknown) =>
    (await jsonCaller(base)(method, path, token, body)).body;
  const children: ChildProcess[] = [];
  try {
    const admin = (await call('POST', '/api/auth/token', undefined, { apiKey: service.adminApiKey })).token;
    const created = await call('POST', '/api/admin/tenants', admin, { name: 'bench' });
    const token = (await call('POST', '/api/auth/token', undefined, { apiKey: created.apiKey })).token;
    const portalId = created.tenant.portal_id as string;
    const sessionId = (await call('POST', '/api/sessions', token, { name: 'bench' })).session
      .sessionId as string;
    for (let i = 0; ; i++) {
      if ((await call('GET', `/api/sessions/${sessionId}`, token)).session.status === 'READY') break;
      if (i > 100) throw new Error('session not READY');
      await sleep(100);
    }

    // Webhook receiver, in this process: records when each message id arrives.
    const webhookAt = new Map<string, number>();
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.event === 'message.inbound' && !webhookAt.has(body.message_id))
          webhookAt.set(body.message_id, Date.now());
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await call('POST', '/api/webhook/config', token, {
      webhookUrl: hook,
      secretToken: 'bench-secret',
      approvedDomains: '127.0.0.1',
    });

    const clients = fork('bench/support/sse-clients.ts', [], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    children.push(clients);
    const ask = <T>(msg: object, type: string) =>
      new Promise<T>((resolve) => {
        const on = (m: { type: string }) => {
          if (m.type !== type) return;
          clients.off('message', on);
          resolve(m as T);
        };
        clients.on('message', on);
        clients.send(msg);
      });
    await new Promise((r) => clients.once('message', r));
    const streamUrl = `${base}/api/public/portal/${portalId}/stream`;

    const sendInbound = async (i: number) => {
      const t0 = Date.now();
      const r = await call('POST', '/_sim/inbound', undefined, {
        sessionId,
        from: '15550009999',
        name: 'Bench',
        text: `bench ${i}`,
      });
      return { id: r.messageId as string, t0 };
    };
    const report = async () =>
      (
        await ask<{ arrivals: Record<string, { count: number; first: number; last: number }> }>(
          { cmd: 'report' },
          'report',
        )
      ).arrivals;

    // 1. Latency with one SSE client, messages every 50 ms.
    await ask({ cmd: 'open', url: streamUrl, n: 1 }, 'opened');
    const sent: Array<{ id: string; t0: number }> = [];
    for (let i = 0; i < MESSAGES; i++) {
      sent.push(await sendInbound(i));
      await sleep(50);
    }
    await sleep(5000);
    const arrivals = await report();
    const webhookLatency = sent.flatMap((s) =>
      webhookAt.has(s.id) ? [(webhookAt.get(s.id) ?? 0) - s.t0] : [],
    );
    const sseLatency = sent.flatMap((s) => (arrivals[s.id] ? [(arrivals[s.id]?.first ?? 0) - s.t0] : []));
    console.log(JSON.stringify({ phase: 'latency, 1 SSE client', messages: MESSAGES }));
    console.log(JSON.stringify({ metric: 'inbound→webhook ms', ...summary(webhookLatency) }));
    console.log(JSON.stringify({ metric: 'inbound→SSE ms', ...summary(sseLatency) }));

    // 2. Memory per connection, and fan-out latency to every client.
    let open = 1;
    for (const target of COUNTS) {
      const before = await settle();
      const opened = await ask<{ connected: number; ms: number }>(
        { cmd: 'open', url: streamUrl, n: target - open },
        'opened',
      );
      const added = target - open;
      open = target;
      await sleep(1000);
      const after = await settle();
      const fan: Array<{ id: string; t0: number }> = [];
      for (let i = 0; i < FANOUT_MESSAGES; i++) {
        fan.push(await sendInbound(10_000 + target + i));
        await sleep(250);
      }
      await sleep(4000);
      const arr = await report();
      const complete = fan.filter((s) => (arr[s.id]?.count ?? 0) >= opened.connected);
      console.log(
        JSON.stringify({
          phase: `${target} SSE clients`,
          openedInMs: opened.ms,
          feed: feedStats(),
          rssPerConnKb: +((after.rss - before.rss) / added / 1024).toFixed(1),
          heapPerConnKb: +((after.heapUsed - before.heapUsed) / added / 1024).toFixed(1),
          externalPerConnKb: +(
            (after.external + after.arrayBuffers - before.external - before.arrayBuffers) /
            added /
            1024
          ).toFixed(2),
          rssMb: +(after.rss / 2 ** 20).toFixed(0),
        }),
      );
      console.log(
        JSON.stringify({
          metric: `inbound→last of ${target} SSE clients ms`,
          everyClientGotEach: complete.length === fan.length,
          ...summary(fan.map((s) => (arr[s.id]?.last ?? Number.NaN) - s.t0)),
        }),
      );
      console.log(
        JSON.stringify({
          metric: `inbound→first of ${target} SSE clients ms`,
          ...summary(fan.map((s) => (arr[s.id]?.first ?? Number.NaN) - s.t0)),
        }),
      );
    }
    await ask({ cmd: 'close' }, 'closed');
    await sleep(1000);
    // Every stream closed: no poller may be left running.
    console.log(JSON.stringify({ phase: 'after all clients left', feed: feedStats() }));
    receiver.close();
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await service.stop();
  }
}

runToExit(main);
