import './support/quiet.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { cpus } from 'node:os';
import { PurgeQueueCommand } from '@aws-sdk/client-sqs';
import type { InitializeMiddleware } from '@smithy/types';
import { dynamoClient, sqsClient } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { queueUrl } from '#shared/aws/queue-url';
import { queues } from '#shared/aws/resources';
import { sendJson } from '#shared/queue/send';
import { dataTable } from '#shared/store/tables';
import { createApp } from '../functions/api/app.ts';
import { startService } from '../scripts/local/service.ts';
import { benchTenant } from './support/bench-tenant.ts';
import { leanJsonPost } from './support/lean-http.ts';
import { runToExit } from './support/run-to-exit.ts';

/**
 * Native send (`POST /api/messages/send`) on one machine: accept latency p50/p99 over HTTP, sustained
 * accepted sends per second at a fixed concurrency, and the DynamoDB and SQS requests one accepted
 * message costs (counted by an SDK middleware around in-process requests).
 *
 * The host paces delivery (SEND_INTERVAL_MS=60000 here), so the numbers are the API's accept path
 * alone, not the network's pacing.
 *
 * Run: npx tsx bench/send-latency.ts [sequentialSends=300] [sustainSeconds=10] [concurrency=16]
 */
const SEQUENTIAL = Number(process.argv[2] ?? 300);
const SUSTAIN_S = Number(process.argv[3] ?? 10);
const CONCURRENCY = Number(process.argv[4] ?? 16);

type Counts = Record<string, number>;
const scope = new AsyncLocalStorage<Counts>();

/** Counts every SDK command issued inside `scope`, by service and command name. */
function counter<I extends object, O extends object>(service: string): InitializeMiddleware<I, O> {
  return (next, context) => async (args) => {
    const counts = scope.getStore();
    if (counts) {
      const key = `${service}:${context.commandName}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return next(args);
  };
}

function countRequests() {
  dynamoClient().middlewareStack.add(counter('dynamodb'), { step: 'initialize', name: 'bench-count' });
  sqsClient().middlewareStack.add(counter('sqs'), { step: 'initialize', name: 'bench-count' });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const service = await startService({
    driver: 'simulator',
    port: 0,
    beforeFirstRequest: countRequests,
    env: { LOG_LEVEL: 'warn', SEND_INTERVAL_MS: '60000', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  try {
    const { call, token } = await benchTenant(service.baseUrl, service.adminApiKey);

    const sessions: string[] = [];
    for (let i = 0; i < 4; i++)
      sessions.push((await call('POST', '/api/sessions', token, {})).body.session.mobid);
    const deadline = Date.now() + 30_000;
    while ((await call('GET', '/api/sessions', token)).body.sessions.some((s: any) => s.status !== 'READY')) {
      if (Date.now() > deadline) throw new Error('sessions did not become READY');
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const mobid of sessions)
      await call('POST', `/api/sessions/usage/${mobid}`, token, { limit: 100_000_000 });

    let n = 0;
    const post = leanJsonPost(service.baseUrl, token);
    const send = async () => {
      const i = n++;
      const t0 = performance.now();
      const r = await post('/api/messages/send', {
        sessionId: sessions[i % sessions.length],
        to: '919800000001',
        type: 'text',
        message: `bench ${i}`,
      });
      if (r.status !== 202) throw new Error(`send answered ${r.status}: ${JSON.stringify(r.body)}`);
      return performance.now() - t0;
    };

    for (let i = 0; i < 20; i++) await send();
    const latencies: number[] = [];
    // The emulators' round trips interleaved with the sends, so both see the same machine load.
    const floorQueue = names.deadLetterQueue(queues.events);
    const timed = async (fn: () => Promise<unknown>) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    const mixed = { get: [] as number[], put: [] as number[], sqs: [] as number[], http: [] as number[] };
    for (let i = 0; i < SEQUENTIAL; i++) {
      latencies.push(await send());
      mixed.get.push(await timed(() => dataTable.get({ pk: 'BENCH#floor', sk: 'x' }, true)));
      mixed.put.push(await timed(() => dataTable.put({ pk: 'BENCH#floor', sk: `m${i}`, type: 'bench' })));
      mixed.sqs.push(await timed(() => sendJson(floorQueue, { kind: 'bench-floor' })));
      // The same request refused by validation: HTTP, auth and schema, no AWS request.
      mixed.http.push(await timed(() => post('/api/messages/send', { sessionId: sessions[0] })));
    }
    latencies.sort((a, b) => a - b);
    for (const t of Object.values(mixed)) t.sort((a, b) => a - b);

    let accepted = 0;
    const end = Date.now() + SUSTAIN_S * 1000;
    const start = performance.now();
    const underLoad: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() < end) {
          underLoad.push(await send());
          accepted++;
        }
      }),
    );
    const perSecond = accepted / ((performance.now() - start) / 1000);
    underLoad.sort((a, b) => a - b);

    const app = await createApp();
    const counted = 50;
    const counts: Counts = {};
    await scope.run(counts, async () => {
      for (let i = 0; i < counted; i++) {
        const r = await app.request('/api/messages/send', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ sessionId: sessions[0], to: '919800000001', message: `counted ${i}` }),
        });
        if (r.status !== 202) throw new Error(`counted send answered ${r.status}`);
      }
    });
    const perMessage = Object.fromEntries(
      Object.entries(counts)
        .sort()
        .map(([k, v]) => [k, v / counted]),
    );
    const writes =
      (perMessage['dynamodb:UpdateItemCommand'] ?? 0) + (perMessage['dynamodb:PutItemCommand'] ?? 0);

    // The floor under the accept path: one round trip to each local emulator, measured between the sends.
    const getItem = mixed.get;
    const putItem = mixed.put;
    // Sent to a dead-letter queue, which nothing consumes, then purged.
    const sqsSend = mixed.sqs;
    await sqsClient().send(new PurgeQueueCommand({ QueueUrl: await queueUrl(floorQueue) }));

    const fmt = (x: number) => x.toFixed(1);
    console.log(
      `\nNative send accept path (${process.version}, ${cpus().length} CPUs, DynamoDB Local + fauxqs)`,
    );
    console.log(
      `sequential sends: ${SEQUENTIAL}  p50 ${fmt(pct(latencies, 50))} ms  p99 ${fmt(pct(latencies, 99))} ms`,
    );
    console.log(
      `sustained: ${CONCURRENCY} concurrent for ${SUSTAIN_S} s → ${accepted} accepted, ${fmt(perSecond)} sends/s ` +
        `(p50 ${fmt(pct(underLoad, 50))} ms, p99 ${fmt(pct(underLoad, 99))} ms under load)`,
    );
    console.log(
      `emulator round trip: DynamoDB GetItem p50 ${fmt(pct(getItem, 50))} ms p99 ${fmt(pct(getItem, 99))} ms; ` +
        `SQS SendMessage p50 ${fmt(pct(sqsSend, 50))} ms p99 ${fmt(pct(sqsSend, 99))} ms`,
    );
    console.log(
      `HTTP round trip of a send refused by validation (auth and schema, no AWS request): p50 ${fmt(pct(mixed.http, 50))} ms`,
    );
    console.log(`requests per accepted message: ${JSON.stringify(perMessage)} (DynamoDB writes: ${writes})`);
    // What the accept path waits for at least: each request it makes, at its emulator's p50, one
    // after another (reads at GetItem's, writes at PutItem's, queue sends at SendMessage's).
    const kindOf = (k: string) =>
      k.startsWith('sqs:')
        ? pct(sqsSend, 50)
        : /Get|Query|Scan/.test(k)
          ? pct(getItem, 50)
          : pct(putItem, 50);
    const waited = Object.entries(perMessage).reduce((sum, [k, n]) => sum + n * kindOf(k), 0);
    console.log(
      `emulator PutItem p50 ${fmt(pct(putItem, 50))} ms; sum of the round trips on the accept path ${fmt(waited)} ms; ` +
        `sequential accept p50 / that sum (floors measured between the sequential sends) = ${(pct(latencies, 50) / waited).toFixed(2)} (target ≤ 1.5)`,
    );
    console.log(`reproduce: npx tsx bench/send-latency.ts ${SEQUENTIAL} ${SUSTAIN_S} ${CONCURRENCY}`);
  } finally {
    await service.stop();
  }
}

runToExit(main);
