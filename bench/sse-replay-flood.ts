import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startService } from '../scripts/local/service.ts';
import { jsonCaller } from '../tests/support/http.ts';
import { must } from '../tests/support/must.ts';
import { sseBlocks } from '../tests/support/sse-frames.ts';
import { benchTenant, readyBenchSession } from './support/bench-tenant.ts';

/**
 * Issue 34, hole 6: many unauthenticated clients resuming one tenant's stream from far back at once,
 * and what it does to everyone else, measured as `/health` latency (docs/events.md, "Fair
 * sharing"). One local service (simulator network) in this process; the clients are plain fetches
 * in a child process, each reading until it has every message or its stream ends.
 *
 * Run: npx tsx bench/sse-replay-flood.ts [clients, default 300] [stored messages, default 600]
 */
const CLIENTS = Number(process.argv[2] ?? 300);
const MESSAGES = Number(process.argv[3] ?? 600);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (v: number[], p: number) =>
  [...v].sort((a, b) => a - b)[Math.ceil((p / 100) * v.length) - 1] ?? NaN;

/** Reads one stream until it ends or `want` events arrived; answers its status and event count. */
async function client(url: string, lastEventId: string, want: number) {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { 'last-event-id': lastEventId }, signal: ac.signal });
  let events = 0;
  if (res.status === 200 && res.body) {
    try {
      for await (const block of sseBlocks(res.body as AsyncIterable<Uint8Array>)) {
        if (block.startsWith('id: ')) events++;
        if (events >= want) break;
      }
    } catch {}
  }
  ac.abort();
  return { status: res.status, events };
}

// The clients run in a child process (this file with `--clients`), so that reading their streams
// does not take the server's CPU in this one.
if (process.argv[2] === '--clients') {
  const [url, from, n, want] = process.argv.slice(3);
  const results = await Promise.all(
    Array.from({ length: Number(n) }, () => client(must(url, 'url'), must(from, 'from'), Number(want))),
  );
  process.send?.(results);
  process.exit(0);
}

const service = await startService({ driver: 'simulator', port: 0, env: { LOG_LEVEL: 'warn' } });
const call = async (method: string, path: string, token?: string, body?: unknown) =>
  (await jsonCaller(service.baseUrl)(method, path, token, body)).body;
try {
  const tenant = await benchTenant(service.baseUrl, service.adminApiKey, 'flood');
  const { token } = tenant;
  const sessionId = await readyBenchSession(tenant.call, token, 'flood');
  const from = `${Date.now() - 1}#start`;
  for (let i = 0; i < MESSAGES; i += 20)
    await Promise.all(
      Array.from({ length: Math.min(20, MESSAGES - i) }, (_, k) =>
        call('POST', '/_sim/inbound', undefined, { sessionId, from: '15550001234', text: `m${i + k}` }),
      ),
    );
  const stored = Math.min(500, MESSAGES);
  while ((await call('GET', `/view/messages/v1?sessionId=${sessionId}&limit=500`, token)).count < stored)
    await sleep(200);
  await sleep(2_000);

  const health: number[] = [];
  let stop = false;
  const probe = (async () => {
    while (!stop) {
      const t0 = performance.now();
      await fetch(`${service.baseUrl}/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t0);
      await sleep(50);
    }
  })();
  const t0 = performance.now();
  const url = `${service.baseUrl}/api/public/portal/${tenant.portalId}/stream`;
  const child = fork(
    fileURLToPath(import.meta.url),
    ['--clients', url, from, String(CLIENTS), String(MESSAGES)],
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  const results = await new Promise<Array<{ status: number; events: number }>>((resolve) =>
    child.once('message', (m) => resolve(m as Array<{ status: number; events: number }>)),
  );
  const floodMs = Math.round(performance.now() - t0);
  stop = true;
  await probe;
  console.log(
    JSON.stringify({
      clients: CLIENTS,
      messages: MESSAGES,
      admitted: results.filter((r) => r.status === 200).length,
      refused429: results.filter((r) => r.status === 429).length,
      eventsPerAdmitted: pct(
        results.filter((r) => r.status === 200).map((r) => r.events),
        50,
      ),
      floodMs,
      healthMs: { n: health.length, p50: Math.round(pct(health, 50)), max: Math.round(pct(health, 100)) },
    }),
  );
} finally {
  await service.stop();
}
