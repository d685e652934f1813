import { randomUUID } from 'node:crypto';
import { commandQueue, queueName } from '#shared/aws/resources';
import { sendJson } from '#shared/queue/send';
import { shardOf } from '#shared/sessions/shard';
import { must } from '../tests/support/must.ts';
import { localAws, rssOf, startCluster, until } from './support/cluster.ts';

/**
 * Memory per idle connected session on one connection host (1, 100, 1,000 simulated sessions), and
 * the time from SIGKILL of the host holding a session to a queued command reaching the network.
 * Run: npx tsx bench/sessions.ts [maxSessions]
 */
const MAX = Number(process.argv[2] ?? 1000);
const SHARDS = 4;

async function memoryPerSession() {
  const cluster = await startCluster({ prefix: `bs${Date.now() % 100000}`, shards: SHARDS });
  try {
    const host = cluster.spawnHost('bench-host');
    await new Promise((r) => setTimeout(r, 3000));
    const rows: Array<{ sessions: number; rssMb: number; perSessionKb: number }> = [];
    const gc = async () => new Promise((r) => setTimeout(r, 3000));
    await gc();
    const baseline = rssOf(must(host.pid, 'host.pid'));
    rows.push({ sessions: 0, rssMb: baseline / 2 ** 20, perSessionKb: 0 });
    let created = 0;
    for (const target of [1, 100, 1000].filter((n) => n <= MAX)) {
      const batch: Promise<unknown>[] = [];
      for (; created < target; created++)
        batch.push(cluster.call('POST', '/api/sessions', cluster.token, { name: `s${created}` }));
      await Promise.all(batch);
      await until(
        async () => {
          const list = await cluster.call('GET', '/api/sessions', cluster.token);
          return list.sessions.filter((s: { status: string }) => s.status === 'READY').length >= target;
        },
        180_000,
        `${target} sessions READY`,
      );
      console.error(`${target} sessions READY`);
      await gc();
      const rss = rssOf(must(host.pid, 'host.pid'));
      rows.push({ sessions: target, rssMb: rss / 2 ** 20, perSessionKb: (rss - baseline) / target / 1024 });
    }
    return rows;
  } finally {
    await cluster.stop();
  }
}

async function failoverTime() {
  const prefix = `bf${Date.now() % 100000}`;
  const cluster = await startCluster({
    prefix,
    shards: 2,
    env: { LEASE_TTL_MS: '5000', SEND_INTERVAL_MS: '0' },
  });
  try {
    const hosts = { 'host-a': cluster.spawnHost('host-a') };
    await until(
      async () => (await cluster.leaseOwner(0)) === 'host-a' && (await cluster.leaseOwner(1)) === 'host-a',
      30_000,
      'host A holds both shards',
    );
    const s = (await cluster.call('POST', '/api/sessions', cluster.token, {})).session;
    await until(
      async () =>
        (await cluster.call('GET', `/api/sessions/${s.sessionId}`, cluster.token)).session.status === 'READY',
      20_000,
      'READY',
    );
    const b = cluster.spawnHost('host-b');
    await new Promise((r) => setTimeout(r, 3000));
    const shard = shardOf(s.sessionId, 2);
    if ((await cluster.leaseOwner(shard)) !== 'host-a') throw new Error('host A should hold the session');
    const exited = new Promise((r) => hosts['host-a'].once('exit', r));
    hosts['host-a'].kill('SIGKILL');
    await exited;
    const killed = Date.now();
    const commandId = `cmd_${randomUUID()}`;
    await sendJson(
      queueName(prefix, commandQueue(shardOf(s.sessionId, 2))),
      {
        kind: 'send',
        commandId,
        tenantId: 'admin',
        sessionId: s.sessionId,
        issuedAt: Date.now(),
        messageId: `BENCH${Date.now()}`,
        to: '919800000001',
        content: { kind: 'text', text: 'after failover' },
      },
      { groupId: s.sessionId, dedupId: commandId },
    );
    await until(
      async () => (await cluster.call('GET', `/_sim/outbox?sessionId=${s.sessionId}`)).messages.length === 1,
      90_000,
      'delivered',
    );
    const ms = Date.now() - killed;
    const owner = await cluster.leaseOwner(shard);
    if (owner !== 'host-b' || b.exitCode !== null) {
      const o = (await cluster.call('GET', `/_sim/outbox?sessionId=${s.sessionId}`)).messages[0];
      throw new Error(
        `host B should hold it now (owner ${owner}, host A ${hosts['host-a'].signalCode}, sent ${o.at - killed} ms after the kill)`,
      );
    }
    return ms;
  } finally {
    await cluster.stop();
  }
}

const memory = await memoryPerSession();
const failoverMs = await failoverTime();
console.log('\nRSS of one connection host with N idle READY simulated sessions');
console.table(
  memory.map((r) => ({
    sessions: r.sessions,
    'RSS MB': r.rssMb.toFixed(1),
    'KB per session': r.perSessionKb.toFixed(1),
  })),
);
console.log(
  `Failover (SIGKILL → queued command delivered by the other host, lease TTL 5 s): ${failoverMs} ms`,
);
console.log(`Reproduce: npx tsx bench/sessions.ts ${MAX}`);
await (await localAws()).stop();
process.exit(0);
