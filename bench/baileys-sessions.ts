import type { ChildProcess } from 'node:child_process';
import { type FakeUser, startFakeNetwork } from '../tests/support/fake-network/index.ts';
import { jsonClient } from '../tests/support/http.ts';
import { localAws, rssOf, startCluster, until } from './support/cluster.ts';

/**
 * Memory per idle connected session of the Baileys driver, and the time to bring every session
 * back after a host restart, against the fake network edge (tests/support/fake-network, in this
 * process: its memory is not the host's). One connection host process (MESSAGING_DRIVER=baileys,
 * one shard) and an API process on local DynamoDB/S3/SQS; each session is its own account on the
 * fake network, linked by QR through the API like a user would.
 *
 * For each step (default 1, 50, 200 sessions): link up to N, wait until every one is READY and its
 * device online at the network, let the host settle, then read its VmRSS `RUNS` times 2 s apart
 * and keep the lowest (after GC). Per session = (RSS − empty-host RSS) / N. Then SIGTERM the host,
 * start a new one, and time until every device has logged in again (no QR) and the API shows
 * every session READY.
 *
 * Run: npx tsx bench/baileys-sessions.ts [steps=1,50,200] [linkConcurrency=8] [runs=3]
 */
const STEPS = (process.argv[2] ?? '1,50,200').split(',').map(Number);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const RUNS = Number(process.argv[4] ?? 3);
const MAX = Math.max(...STEPS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const net = await startFakeNetwork({ replyTimeoutMs: 60_000 });
const cluster = await startCluster({
  prefix: `bb${Date.now() % 100000}`,
  shards: 1,
  env: {
    MESSAGING_DRIVER: 'baileys',
    BAILEYS_WS_URL: net.url,
    BAILEYS_TEST_ROOT_PUBLIC_KEY: net.rootPublicKey,
    NODE_ENV: 'test',
    SEND_INTERVAL_MS: '0',
    LEASE_TTL_MS: '5000',
  },
});

type Session = { sessionId: string; status: string };
const list = async () => (await cluster.call('GET', '/api/sessions', cluster.token)).sessions as Session[];
const users: FakeUser[] = [];
const onlineNow = () => users.filter((u) => [...u.companions.values()].some((c) => c.online)).length;

/** RSS after GC settles: the lowest of RUNS readings 2 s apart, after a 5 s pause. */
async function settledRss(pid: number): Promise<{ min: number; runs: number[] }> {
  await sleep(5000);
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i > 0) await sleep(2000);
    runs.push(rssOf(pid));
  }
  return { min: Math.min(...runs), runs };
}

async function linkOne(i: number): Promise<void> {
  const phone = `9198${String(10_000_000 + i)}`;
  const user = net.addUser({ phone, name: `Bench ${i}` });
  const s = (await cluster.call('POST', '/api/sessions', cluster.token, { name: `b${i}` }))
    .session as Session;
  const api = jsonClient(cluster.baseUrl, cluster.token);
  const qr = await until(
    async () =>
      (await api.get(`/api/sessions/${s.sessionId}/qr`, { accept: 'application/json' })).body?.qr as
        | string
        | undefined,
    120_000,
    `QR of session ${i}`,
  );
  await user.scanQr(qr);
  users.push(user);
}

async function linkUpTo(n: number) {
  let next = users.length;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      await linkOne(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n - users.length) }, worker));
  await until(
    async () => (await list()).filter((s) => s.status === 'READY').length >= n && onlineNow() >= n,
    600_000,
    `${n} sessions READY and online`,
  );
}

const rows: Array<{ sessions: number; rssMb: number; perSessionMb: number; runs: string }> = [];
let host: ChildProcess = cluster.spawnHost('bench-baileys-host');
let restart: { onlineMs: number; readyMs: number; sessions: number } | undefined;
try {
  await sleep(3000);
  const empty = await settledRss(host.pid!);
  rows.push({ sessions: 0, rssMb: empty.min / 2 ** 20, perSessionMb: 0, runs: fmt(empty.runs) });
  for (const n of STEPS) {
    const t0 = Date.now();
    await linkUpTo(n);
    console.error(`${n} sessions READY (linking took ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    const r = await settledRss(host.pid!);
    rows.push({
      sessions: n,
      rssMb: r.min / 2 ** 20,
      perSessionMb: (r.min - empty.min) / n / 2 ** 20,
      runs: fmt(r.runs),
    });
  }

  // Restart: a new host process brings every session back from the stored creds.
  const exited = new Promise((r) => host.once('exit', r));
  host.kill('SIGTERM');
  await exited;
  await until(async () => onlineNow() === 0, 60_000, 'every device offline');
  const logins = new Set<FakeUser>();
  net.on('online', (c: { user: FakeUser }) => logins.add(c.user));
  const started = Date.now();
  host = cluster.spawnHost('bench-baileys-host-2');
  await until(async () => logins.size >= MAX && onlineNow() >= MAX, 900_000, `${MAX} devices back online`);
  const onlineMs = Date.now() - started;
  await until(
    async () => (await list()).filter((s) => s.status === 'READY').length >= MAX,
    300_000,
    `${MAX} READY`,
  );
  restart = { onlineMs, readyMs: Date.now() - started, sessions: MAX };
  if (net.pendingRegistrations().length > 0)
    throw new Error('a session asked for a new QR after the restart');
} finally {
  await cluster.stop();
  await net.close();
}

function fmt(runs: number[]) {
  return runs.map((b) => (b / 2 ** 20).toFixed(1)).join(' / ');
}

console.log(
  `\nCommand: npx tsx bench/baileys-sessions.ts ${STEPS.join(',')} ${CONCURRENCY} ${RUNS}` +
    `\nRSS of one connection host (Baileys driver, fake network) with N idle READY sessions; lowest of ${RUNS} readings 2 s apart`,
);
const one = rows.find((r) => r.sessions === 1);
console.table(
  rows.map((r) => ({
    sessions: r.sessions,
    'RSS MB (min)': r.rssMb.toFixed(1),
    'readings MB': r.runs,
    'MB per session': r.sessions ? r.perSessionMb.toFixed(2) : '— (floor: empty host)',
    // One-time costs (Baileys' lazily built protobuf and Signal code) land on the first session.
    'marginal MB (vs 1 session)':
      r.sessions > 1 && one ? ((r.rssMb - one.rssMb) / (r.sessions - 1)).toFixed(2) : '',
  })),
);
if (restart)
  console.log(
    `Host restart (SIGTERM, new process, lease TTL 5 s): ${restart.sessions} devices logged in again at the network after ${(restart.onlineMs / 1000).toFixed(1)} s (the API read READY throughout: a stopping host leaves the stored status; all READY checked at ${(restart.readyMs / 1000).toFixed(1)} s); no new QR`,
  );
console.log('Target: ≤ 10 MB per session');
await (await localAws()).stop();
process.exit(0);
