import type { ChildProcess } from 'node:child_process';
import type { HostRecord } from '#shared/hosts/registry';
import { shardOf } from '#shared/sessions/shard';
import { must } from '../tests/support/must.ts';
import { localAws, rssOf, startCluster, until } from './support/cluster.ts';
import { inboundWebhookReceiver } from './support/webhook-receiver.ts';

/**
 * Scale-out proof (issue 29): 4 host processes (or `hosts`) share N simulated sessions; one is killed (SIGKILL);
 * then one more joins. Reports sessions per host before and after (max/min), RSS per session, the
 * time until every session of the dead host is READY on another host, the inbound messages sent
 * to its sessions during the failover against those stored and delivered by webhook (lost,
 * duplicated), and the spread once the joining host has its share.
 * Run: npx tsx bench/scale-out.ts [sessions=4000] [leaseTtlMs=15000] [hosts=4]
 * BENCH_HOST_LOG_LEVEL=info (or debug) shows what the hosts log (stderr), to see where a failover spends its time.
 */
const SESSIONS = Number(process.argv[2] ?? 4000);
const TTL_MS = Number(process.argv[3] ?? 15_000);
/** Host processes at first; one is killed, then one more joins. */
const HOSTS = Number(process.argv[4] ?? 4);
const QUEUES = 4;
const LEASE_SHARDS = 64;
/** Inbound messages injected per moved session while its host is dead. */
const PER_SESSION = 2;

/** A host as `GET /api/admin/hosts` shows it: its heartbeat. */
type HostView = Omit<HostRecord, 'expiresAtMs'>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const prefix = `so${Date.now() % 100000}`;
  const cluster = await startCluster({
    prefix,
    shards: QUEUES,
    env: {
      LEASE_SHARDS: String(LEASE_SHARDS),
      LEASE_TTL_MS: String(TTL_MS),
      SEND_INTERVAL_MS: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  const seen = new Map<string, number>();
  const receiver = await inboundWebhookReceiver((tag) => {
    if (typeof tag === 'string' && tag.startsWith('f')) seen.set(tag, (seen.get(tag) ?? 0) + 1);
  });
  const procs = new Map<string, ChildProcess>();
  try {
    const { call } = cluster;
    const admin = cluster.token;
    const hosts = async (): Promise<HostView[]> => (await call('GET', '/api/admin/hosts', admin)).hosts;
    const spread = (hs: HostView[]) => {
      const n = hs.map((h) => h.sessions);
      const mean = n.reduce((a, b) => a + b, 0) / n.length;
      return { max: Math.max(...n), min: Math.min(...n), overMean: Math.max(...n) / mean };
    };
    const show = (hs: HostView[]) => {
      const s = spread(hs);
      return `${s.max} / ${s.min} (${(s.max / s.min).toFixed(2)}×; max ${s.overMean.toFixed(2)}× the mean)`;
    };
    /**
     * The hosts hand shards over until sessions are even (connection-host/shard-moves.ts): waits
     * until `hosts` answers, no host is busy and the sessions per host stay the same for 4 polls (about 5 s).
     */
    const settled = async (pick: (hs: HostView[]) => HostView[] | undefined, what: string) => {
      let last = '';
      let same = 0;
      return until(
        async () => {
          const hs = pick(await hosts());
          if (!hs || hs.some((h) => h.busy)) return undefined;
          const key = hs.map((h) => `${h.hostId}:${h.sessions}:${h.ready}`).join(' ');
          same = key === last ? same + 1 : 0;
          last = key;
          if (same < 4) {
            await sleep(1000);
            return undefined;
          }
          return hs;
        },
        180_000,
        what,
      );
    };
    const received = async () => {
      const text = await (await fetch(`${cluster.baseUrl}/metrics`)).text();
      return Number(text.match(/^wsm_messages_received_total (\d+)/m)?.[1] ?? 0);
    };

    const first = Array.from({ length: HOSTS }, (_, i) => `h${i + 1}`);
    const joining = `h${HOSTS + 1}`;
    for (const id of first) procs.set(id, cluster.spawnHost(id));
    await until(
      async () => {
        const hs = await hosts();
        return hs.length === HOSTS && hs.reduce((n, h) => n + h.shards.length, 0) === LEASE_SHARDS;
      },
      120_000,
      `${HOSTS} hosts holding every shard`,
    );
    console.error(`${HOSTS} hosts up`);
    await sleep(3000);
    const baseline = [...procs.values()].reduce((n, p) => n + rssOf(must(p.pid, 'p.pid')), 0);

    const tenant = await call('POST', '/api/admin/tenants', admin, { name: 'scale-out bench' });
    const token = (await call('POST', '/api/auth/token', undefined, { apiKey: tenant.apiKey })).token;
    await call('POST', '/api/webhook/config', token, {
      webhookUrl: receiver.url,
      approvedDomains: '127.0.0.1',
      enabled: true,
    });
    const ids: string[] = [];
    const creating = Date.now();
    for (let i = 0; i < SESSIONS; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, SESSIONS - i) }, (_, j) =>
          call('POST', '/api/sessions', token, { name: `s${i + j}` }),
        ),
      );
      ids.push(...batch.map((b) => b.session.sessionId as string));
    }
    let shownAt = Date.now();
    await until(
      async () => {
        const hs = await hosts();
        if (Date.now() - shownAt > 15_000) {
          shownAt = Date.now();
          console.error(
            hs.map((h) => `${h.hostId} ${h.ready}/${h.sessions}${h.busy ? ' busy' : ''}`).join(', '),
          );
        }
        return hs.reduce((n, h) => n + h.ready, 0) >= SESSIONS;
      },
      SESSIONS * 200 + 60_000,
      `${SESSIONS} sessions READY`,
    );
    const createMs = Date.now() - creating;
    console.error(`${SESSIONS} sessions READY`);
    const balancing = Date.now();
    const before = await settled(
      (hs) => (hs.reduce((k, h) => k + h.ready, 0) >= SESSIONS ? hs : undefined),
      'the sessions spread settled',
    );
    const balanceMs = Date.now() - balancing;
    const rss = [...procs.values()].reduce((n, p) => n + rssOf(must(p.pid, 'p.pid')), 0);

    // Kill the host running the most sessions; its sessions must come up elsewhere.
    const victim = before.reduce((a, b) => (b.sessions > a.sessions ? b : a));
    const moved = ids.filter((id) => victim.shards.includes(shardOf(id, LEASE_SHARDS)));
    const storedBefore = await received();
    const fenceBefore = new Map(
      await Promise.all(
        moved.map(
          async (id) => [id, (await cluster.sessionState(tenant.tenant.id, id))?.fence ?? 0] as const,
        ),
      ),
    );
    must(procs.get(victim.hostId), 'procs.get(victim.hostId)').kill('SIGKILL');
    const killedAt = Date.now();
    const tags: string[] = [];
    // Sent while the phases below are watched, so the watching starts at the kill.
    const injecting = (async () => {
      let n = 0;
      for (const sessionId of moved) {
        for (let i = 0; i < PER_SESSION; i++) {
          const tag = `f${n++}`;
          tags.push(tag);
          await call('POST', '/_sim/inbound', undefined, { sessionId, from: '919800000001', text: tag });
        }
      }
    })();
    const others = (hs: HostView[]) => hs.filter((h) => h.hostId !== victim.hostId);
    // The phases of the failover: the victim's heartbeat gone from the host list, its sessions'
    // shards taken by others, every one READY as the new host wrote it (under a later fence, at
    // the time the host saw it), the others' heartbeats counting them.
    const victimShards = [...new Set(moved.map((id) => shardOf(id, LEASE_SHARDS)))];
    const phase: { gone?: number; taken?: number; ready?: number } = {};
    const afterKill = await until(
      async () => {
        const all = await hosts();
        if (phase.gone === undefined && !all.some((h) => h.hostId === victim.hostId)) phase.gone = Date.now();
        if (phase.taken === undefined) {
          const owners = await Promise.all(victimShards.map((sh) => cluster.leaseOwner(sh)));
          if (owners.every((o) => o !== undefined && o !== victim.hostId)) phase.taken = Date.now();
        }
        const hs = others(all);
        return hs.reduce((k, h) => k + h.ready, 0) >= SESSIONS ? hs : undefined;
      },
      TTL_MS + 120_000,
      'every session READY on the other hosts',
    );
    const failoverMs = Date.now() - killedAt;
    await injecting;
    await until(
      async () => {
        const states = await Promise.all(moved.map((id) => cluster.sessionState(tenant.tenant.id, id)));
        const again = states.every(
          (st, i) => st?.status === 'READY' && (st.fence ?? 0) > (fenceBefore.get(moved[i] ?? '') ?? 0),
        );
        if (again) phase.ready = Math.max(...states.map((st) => st?.stateAt ?? 0));
        return again;
      },
      60_000,
      'every moved session READY under a new fence',
    );
    const since = (t?: number) => (t === undefined ? 'not seen' : `${((t - killedAt) / 1000).toFixed(1)} s`);
    const phases = `heartbeat gone from the host list ${since(phase.gone)}, the shards of its sessions taken ${since(phase.taken)}, every one READY (its status written under the new fence) ${since(phase.ready)}`;
    console.error(phases);
    console.error(`failover done in ${failoverMs} ms`);
    const afterSettled = await settled(
      (hs) => {
        const live = others(hs);
        return live.reduce((k, h) => k + h.ready, 0) >= SESSIONS ? live : undefined;
      },
      `the spread over ${HOSTS - 1} hosts settled`,
    );
    await until(
      async () => tags.every((t) => seen.has(t)) || undefined,
      120_000,
      'the failover messages delivered',
    ).catch(() => undefined);
    await sleep(5000);
    const stored = (await received()) - storedBefore;
    const delivered = tags.filter((t) => seen.has(t)).length;
    const duplicated = [...seen.values()].filter((c) => c > 1).length;

    // One more host joins: the others hand it its share.
    procs.set(joining, cluster.spawnHost(joining));
    const joinedAt = Date.now();
    const rebalanced = await settled((hs) => {
      const live = others(hs);
      return live.length === HOSTS &&
        (live.find((h) => h.hostId === joining)?.sessions ?? 0) > 0 &&
        live.reduce((k, h) => k + h.ready, 0) >= SESSIONS
        ? live
        : undefined;
    }, 'the joining host holding its share, every session READY, the spread settled');
    const rebalanceMs = Date.now() - joinedAt;

    const row = (what: string, value: string | number) => console.log(`| ${what} | ${value} |`);
    console.log(`\n| ${SESSIONS} simulated sessions, ${LEASE_SHARDS} lease shards, TTL ${TTL_MS} ms | |`);
    console.log('| --- | --- |');
    row(
      'First create → every session READY (created 20 at a time, the hosts counting them)',
      `${(createMs / 1000).toFixed(1)} s`,
    );
    row(`Sessions per host, ${HOSTS} hosts (max / min)`, show(before));
    row(
      'All READY → the spread settled (no host busy, the same for 4 polls, about 5 s)',
      `${(balanceMs / 1000).toFixed(1)} s`,
    );
    row(
      `RSS per session (${HOSTS} hosts, over their empty RSS)`,
      `${((rss - baseline) / SESSIONS / 1024).toFixed(0)} KB`,
    );
    row('Sessions of the killed host', moved.length);
    row(
      'SIGKILL → every one READY on another host (the heartbeats counting it)',
      `${(failoverMs / 1000).toFixed(1)} s`,
    );
    row('SIGKILL → phases', phases);
    row(`Sessions per host, ${HOSTS - 1} hosts, all READY (max / min)`, show(afterKill));
    row(`Sessions per host, ${HOSTS - 1} hosts, settled (max / min)`, show(afterSettled));
    row('Inbound sent during the failover / stored / delivered', `${tags.length} / ${stored} / ${delivered}`);
    row('Lost / duplicated webhooks', `${tags.length - delivered} / ${duplicated}`);
    const lost = tags.filter((t) => !seen.has(t));
    if (lost.length) console.error(`not delivered (in the order sent, of ${tags.length}): ${lost.join(' ')}`);
    row(
      'One more host joins → its share, every session READY, settled',
      `${(rebalanceMs / 1000).toFixed(1)} s`,
    );
    row(`Sessions per host, ${HOSTS} hosts after the join (max / min)`, show(rebalanced));
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  } finally {
    receiver.server.close();
    await cluster.stop();
    await (await localAws()).stop();
    process.exit();
  }
}

await main();
