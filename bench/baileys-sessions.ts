import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type FakeUser, startFakeNetwork } from '../tests/support/fake-network/index.ts';
import { jsonClient } from '../tests/support/http.ts';
import { must } from '../tests/support/must.ts';
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
 * Floor, in the same run: bare Baileys sockets (bench/support/bare-baileys.ts: makeWASocket with
 * auth in memory, a silent logger and the network's URL, nothing else; no host, none of our caches)
 * in a process of their own, each linked by QR on the same network; the same steps, readings and
 * arithmetic.
 *
 * Run: npx tsx bench/baileys-sessions.ts [steps=1,50,200] [linkConcurrency=8] [runs=3]
 * BENCH_SETTLE_MS (default 5000) is the pause before the readings: V8 takes about a minute of quiet
 * to give back the heap a linking burst grew (see docs/benchmarks-history.md).
 * With BENCH_MEMORY=1 it also says where the memory goes: at each step the host and the floor
 * process report their memory by kind (V8 heap by space, used/committed MB; array buffers; native),
 * and at the largest step each writes a V8 heap snapshot (Heap.*.heapsnapshot, working directory).
 */
const STEPS = (process.argv[2] ?? '1,50,200').split(',').map(Number);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const RUNS = Number(process.argv[4] ?? 3);
const MAX = Math.max(...STEPS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DIAGNOSE = process.env.BENCH_MEMORY === '1';
const reportDir = DIAGNOSE ? mkdtempSync(join(tmpdir(), 'bench-memory-')) : '';
if (DIAGNOSE) {
  // Children only (this process has started): a memory report on SIGPWR, a heap snapshot on SIGUSR2.
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --expose-gc --heapsnapshot-signal=SIGUSR2 --import tsx --import ./bench/support/memory-report.ts`;
  process.env.BENCH_MEMORY_DIR = reportDir;
}
const reports: Array<Record<string, unknown>> = [];
/** BENCH_MEMORY=1: the child's memory by kind (bench/support/memory-report.ts), kept for the end. */
async function memoryReport(pid: number, what: string) {
  if (!DIAGNOSE) return;
  process.kill(pid, 'SIGPWR');
  await sleep(3000);
  const r = JSON.parse(readFileSync(join(reportDir, `${pid}.json`), 'utf8')) as Record<string, unknown>;
  const spaces = r.spaces as Record<string, { usedMb: number; committedMb: number }>;
  delete r.spaces;
  for (const [k, v] of Object.entries(spaces)) r[k.replace('_space', '')] = `${v.usedMb}/${v.committedMb}`;
  reports.push({ what, ...r });
}
/** BENCH_MEMORY=1: a heap snapshot of the child (Heap.*.heapsnapshot in the working directory). */
async function snapshot(pid: number) {
  if (!DIAGNOSE) return;
  process.kill(pid, 'SIGUSR2');
  await sleep(30_000);
}

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

/** RSS after GC settles: the lowest of RUNS readings 2 s apart, after a pause (5 s unless set). */
async function settledRss(pid: number): Promise<{ min: number; runs: number[] }> {
  await sleep(Number(process.env.BENCH_SETTLE_MS ?? 5000));
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

type Row = { sessions: number; rssMb: number; perSessionMb: number; runs: string };

/** The floor: the same steps with bare sockets in a child process (see the header). */
async function measureFloor(): Promise<Row[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/bare-baileys.ts'], {
    env: { ...process.env, BAILEYS_WS_URL: net.url, BAILEYS_TEST_ROOT_PUBLIC_KEY: net.rootPublicKey },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiters: Array<(o: Record<string, unknown>) => boolean> = [];
  const next = (pred: (o: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) =>
      waiters.push((o) => {
        if (pred(o)) resolve(o);
        return pred(o);
      }),
    );
  let scanned = 0;
  createInterface({ input: must(child.stdout, 'child.stdout') }).on('line', (line) => {
    const o = JSON.parse(line) as Record<string, unknown>;
    if (typeof o.qr === 'string') {
      const user = net.addUser({ phone: `9197${String(10_000_000 + Number(o.i))}`, name: `Bare ${o.i}` });
      user.scanQr(o.qr).then(
        () => scanned++,
        (err) => console.error(`bare socket ${o.i}: scan failed`, err),
      );
    }
    const i = waiters.findIndex((w) => w(o));
    if (i >= 0) waiters.splice(i, 1);
  });
  const out: Row[] = [];
  try {
    await next((o) => o.loaded === true);
    await sleep(3000);
    const empty = await settledRss(must(child.pid, 'child.pid'));
    await memoryReport(must(child.pid, 'child.pid'), 'floor, empty');
    out.push({ sessions: 0, rssMb: empty.min / 2 ** 20, perSessionMb: 0, runs: fmt(empty.runs) });
    let opened = 0;
    for (const n of STEPS) {
      while (opened < n) {
        opened = Math.min(n, opened + CONCURRENCY);
        const done = next((o) => o.open === opened);
        must(child.stdin, 'child.stdin').write(`open ${opened}\n`);
        await done;
      }
      const r = await settledRss(must(child.pid, 'child.pid'));
      out.push({
        sessions: n,
        rssMb: r.min / 2 ** 20,
        perSessionMb: (r.min - empty.min) / n / 2 ** 20,
        runs: fmt(r.runs),
      });
      await memoryReport(must(child.pid, 'child.pid'), `floor, ${n}`);
      console.error(`floor: ${n} bare sockets open (${scanned} scanned)`);
    }
    await snapshot(must(child.pid, 'child.pid'));
  } finally {
    child.kill('SIGKILL');
  }
  return out;
}

const floor = await measureFloor();
const rows: Row[] = [];
let host: ChildProcess = cluster.spawnHost('bench-baileys-host');
let restart: { onlineMs: number; readyMs: number; sessions: number; perSessionMb: number } | undefined;
let emptyRss = 0;
try {
  await sleep(3000);
  const empty = await settledRss(must(host.pid, 'host.pid'));
  emptyRss = empty.min;
  await memoryReport(must(host.pid, 'host.pid'), 'host, empty');
  rows.push({ sessions: 0, rssMb: empty.min / 2 ** 20, perSessionMb: 0, runs: fmt(empty.runs) });
  for (const n of STEPS) {
    const t0 = Date.now();
    await linkUpTo(n);
    console.error(`${n} sessions READY (linking took ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    const r = await settledRss(must(host.pid, 'host.pid'));
    await memoryReport(must(host.pid, 'host.pid'), `host, ${n}`);
    rows.push({
      sessions: n,
      rssMb: r.min / 2 ** 20,
      perSessionMb: (r.min - empty.min) / n / 2 ** 20,
      runs: fmt(r.runs),
    });
  }

  await snapshot(must(host.pid, 'host.pid'));

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
  const readyMs = Date.now() - started;
  // The steady state of a host in service: every session logged in from stored creds, none linked now.
  const after = await settledRss(must(host.pid, 'host.pid'));
  await memoryReport(must(host.pid, 'host.pid'), `host, ${MAX} after restart`);
  restart = { onlineMs, readyMs, sessions: MAX, perSessionMb: (after.min - emptyRss) / MAX / 2 ** 20 };
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
const table = (of: Row[], empty: string) => {
  const one = of.find((r) => r.sessions === 1);
  console.table(
    of.map((r) => ({
      sessions: r.sessions,
      'RSS MB (min)': r.rssMb.toFixed(1),
      'readings MB': r.runs,
      'MB per session': r.sessions ? r.perSessionMb.toFixed(2) : empty,
      // One-time costs (Baileys' lazily built protobuf and Signal code) land on the first session.
      'marginal MB (vs 1 session)':
        r.sessions > 1 && one ? ((r.rssMb - one.rssMb) / (r.sessions - 1)).toFixed(2) : '',
    })),
  );
};
table(rows, '— (empty host)');
console.log('Floor: bare Baileys sockets (auth in memory, no host) in a process of their own, same steps');
table(floor, '— (empty process)');
if (restart)
  console.log(
    `Host restart (SIGTERM, new process, lease TTL 5 s): ${restart.sessions} devices logged in again at the network after ${(restart.onlineMs / 1000).toFixed(1)} s (the API read READY throughout: a stopping host leaves the stored status; all READY checked at ${(restart.readyMs / 1000).toFixed(1)} s); no new QR` +
      `\nAfter the restart, ${restart.sessions} idle sessions logged in from stored creds: ${restart.perSessionMb.toFixed(2)} MB per session over the empty host`,
  );
if (DIAGNOSE) {
  console.log('Memory by kind (MB; V8 spaces used/committed)');
  console.table(reports);
}
console.log('Target: ≤ 3 MB per session');
await (await localAws()).stop();
process.exit(0);
