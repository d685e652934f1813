import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '#shared/hosts/registry';
import { shardOf } from '#shared/sessions/shard';
import { waitFor } from '../support/client.ts';
import { hostCluster } from '../support/host-cluster.ts';
import { must } from '../support/must.ts';
import { stopProcess } from '../support/processes.ts';

/** Command queues (SHARD_COUNT) and the lease shards the hosts share (LEASE_SHARDS, a multiple). */
const QUEUES = 3;
const SHARDS = 48;
const SESSIONS = 4;
const procs: ChildProcess[] = [];

/** A host as `GET /api/admin/hosts` shows it: its heartbeat. */
type HostView = Omit<HostRecord, 'expiresAtMs'>;

describe('connection hosts sharing the shards', () => {
  afterEach(async () => {
    for (const p of procs.splice(0)) await stopProcess(p);
  });

  it('spreads the shards over three hosts, and a SIGTERM’d host hands its sessions over with no command lost or reordered', async () => {
    const cluster = await hostCluster({
      prefix: 'so',
      shardCount: QUEUES,
      env: { LEASE_SHARDS: String(SHARDS), LEASE_TTL_MS: '3000' },
      procs,
    });
    const { anon, admin } = cluster;
    const hostProcs = new Map<string, ChildProcess>();
    const spawnHost = (id: string) => hostProcs.set(id, cluster.spawnHost(id));
    const hosts = async () => {
      const r = await admin.get('/api/admin/hosts');
      expect(r.status).toBe(200);
      expect(r.body.shardCount).toBe(SHARDS);
      return r.body.hosts as HostView[];
    };
    const sessions = async (ids: string[]) =>
      Promise.all(ids.map(async (id) => (await admin.get(`/api/sessions/${id}`)).body.session));
    const allReady = async (ids: string[]) => (await sessions(ids)).every((s) => s?.status === 'READY');

    expect((await anon.get('/api/admin/hosts')).status).toBe(401);

    // One host first: it holds every shard and links the sessions.
    spawnHost('host-a');
    await waitFor(async () => (await hosts()).length === 1, 20_000, 'host-a beating');
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++)
      ids.push((await admin.post('/api/sessions', { name: `spread ${i}` })).body.session.sessionId);
    await waitFor(() => allReady(ids), 30_000, 'sessions READY on host-a');
    const numbers = (await sessions(ids)).map((s) => s.mobile_number);
    // A heartbeat tells what its host held at its last tick (every 2 s): the next one lists them all.
    await waitFor(
      async () => (await hosts())[0]?.shards.length === SHARDS,
      10_000,
      'host-a reporting every shard',
    );
    expect(must((await hosts())[0], '(await hosts())[0]').shards).toEqual(
      Array.from({ length: SHARDS }, (_, s) => s),
    );

    // Two more join: each takes its share by orderly hand-over from host-a, named for it: the
    // sessions, and with them the shards without sessions (16 of 48 each, give or take one).
    spawnHost('host-b');
    spawnHost('host-c');
    const spread = await waitFor(
      async () => {
        const hs = await hosts();
        const total = hs.reduce((n, h) => n + h.shards.length, 0);
        return hs.length === 3 && total === SHARDS && hs.every((h) => Math.abs(h.shards.length - 16) <= 1)
          ? hs
          : undefined;
      },
      60_000,
      'three hosts holding 16 shards each (±1)',
    );
    expect(spread.flatMap((h) => h.shards).sort((a, b) => a - b)).toEqual(
      Array.from({ length: SHARDS }, (_, s) => s),
    );
    for (const h of spread) {
      expect(h.pid).toBe(hostProcs.get(h.hostId)?.pid);
      expect(h.rssBytes).toBeGreaterThan(0);
    }
    // Every session runs on the host holding its shard, READY from its stored credentials: no new QR.
    await waitFor(
      async () => {
        const hs = await hosts();
        return (await allReady(ids)) && hs.reduce((n, h) => n + h.ready, 0) === SESSIONS ? hs : undefined;
      },
      30_000,
      'every session READY again after the hand-over',
    );
    expect((await sessions(ids)).map((s) => s.mobile_number)).toEqual(numbers);

    // Commands keep coming while the host running the most sessions stops (SIGTERM).
    const before = await hosts();
    const leaving = before.reduce((a, b) => (b.sessions > a.sessions ? b : a));
    const moved = ids.filter((id) => leaving.shards.includes(shardOf(id, SHARDS)));
    expect(moved.length).toBeGreaterThan(0);
    const send = (sessionId: string, text: string) => cluster.sendText(sessionId, text);
    const COUNT = 8;
    const stopped = new Promise((r) =>
      must(hostProcs.get(leaving.hostId), 'hostProcs.get(leaving.hostId)').once('exit', r),
    );
    for (let i = 0; i < COUNT; i++) {
      for (const id of moved) await send(id, `m${i}`);
      if (i === 2) must(hostProcs.get(leaving.hostId), 'hostProcs.get(leaving.hostId)').kill('SIGTERM');
    }
    await stopped;

    const after = await waitFor(
      async () => {
        const hs = await hosts();
        const total = hs.reduce((n, h) => n + h.shards.length, 0);
        // The hosts share sessions, not shards: the freed shards go to the host running fewer
        // sessions first, each guessed at the mean sessions a shard (docs/sessions.md).
        return hs.length === 2 && total === SHARDS && hs.every((h) => h.shards.length >= 12) ? hs : undefined;
      },
      30_000,
      'two hosts sharing every shard',
    );
    expect(after.map((h) => h.hostId)).not.toContain(leaving.hostId);
    const expected = Array.from({ length: COUNT }, (_, i) => `m${i}`);
    for (const id of moved) {
      const texts = await waitFor(
        async () => {
          const out = (await anon.get(`/_sim/outbox?sessionId=${id}`)).body.messages as Array<{
            text: string;
          }>;
          return out?.length >= COUNT ? out.map((m) => m.text) : undefined;
        },
        40_000,
        `all ${COUNT} commands of ${id} sent`,
      );
      expect(texts).toEqual(expected);
      // One more behind any redelivery in the session's FIFO group: once it is out, nothing earlier can come.
      await send(id, 'last');
      const all = await waitFor(
        async () => {
          const out = (await anon.get(`/_sim/outbox?sessionId=${id}`)).body.messages as Array<{
            text: string;
          }>;
          return out.some((m) => m.text === 'last') ? out.map((m) => m.text) : undefined;
        },
        20_000,
        'the last command',
      );
      expect(all).toEqual([...expected, 'last']);
    }
    await waitFor(() => allReady(ids), 30_000, 'every session READY on the remaining hosts');
    expect((await sessions(ids)).map((s) => s.mobile_number)).toEqual(numbers);
  }, 240_000);

  it('a host past its memory budget says so and takes no shard: the other host runs every session, and after it stops the shards stay free', async () => {
    const cluster = await hostCluster({
      prefix: 'mb',
      shardCount: 2,
      env: { LEASE_SHARDS: '8', LEASE_TTL_MS: '3000' },
      procs,
    });
    const { admin } = cluster;
    const hosts = async () => (await admin.get('/api/admin/hosts')).body.hosts as HostView[];
    const roomy = cluster.spawnHost('host-roomy');
    await waitFor(
      async () => (await hosts())[0]?.shards.length === 8,
      20_000,
      'host-roomy holding every shard',
    );
    // A host's RSS is well past 64 MB, the least budget there is: this one is full from its first beat.
    cluster.spawnHost('host-full', { HOST_MEMORY_BUDGET_MB: '64' });
    const full = await waitFor(
      async () => (await hosts()).find((h) => h.hostId === 'host-full'),
      20_000,
      'host-full beating',
    );
    expect(full.full).toBe(true);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push((await admin.post('/api/sessions', { name: `budget ${i}` })).body.session.sessionId);
    const ran = await waitFor(
      async () => {
        const hs = await hosts();
        return hs.reduce((n, h) => n + h.ready, 0) === ids.length ? hs : undefined;
      },
      30_000,
      'both sessions READY',
    );
    // Balanced by sessions, two sessions would go one to each host: the full one takes none.
    expect(ran.find((h) => h.hostId === 'host-full')).toMatchObject({ full: true, shards: [], sessions: 0 });
    expect(ran.find((h) => h.hostId === 'host-roomy')).toMatchObject({ sessions: 2, ready: 2 });
    expect(ran.find((h) => h.hostId === 'host-roomy')?.shards).toHaveLength(8);

    // The roomy host stops (its leases released at once): the full host still takes nothing.
    await stopProcess(roomy);
    await waitFor(async () => (await hosts()).length === 1, 20_000, 'host-roomy gone');
    await new Promise((r) => setTimeout(r, 4000)); // two lease ticks
    expect((await hosts())[0]).toMatchObject({ hostId: 'host-full', full: true, shards: [], sessions: 0 });
  }, 120_000);
});
