import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/client.ts';
import { hostCluster } from '../support/host-cluster.ts';
import { stopProcess } from '../support/processes.ts';

const SHARDS = 2;
/** COMMAND_VISIBILITY_SECONDS in connection-host/host.ts. */
const COMMAND_VISIBILITY_MS = 10_000;
const procs: ChildProcess[] = [];

/**
 * An API process (with the simulated network), host A holding a READY session, and host B started
 * after it, all on their own resource prefix.
 */
async function twoHosts(leaseTtlMs: number) {
  const cluster = await hostCluster({
    prefix: 'fo',
    shardCount: SHARDS,
    env: { LEASE_TTL_MS: String(leaseTtlMs) },
    procs,
  });
  const { anon, admin: adminApi } = cluster;
  const hostA = cluster.spawnHost('host-a');
  const sessionId: string = (await adminApi.post('/api/sessions', { name: 'failover' })).body.session
    .sessionId;
  const session = async () => (await adminApi.get(`/api/sessions/${sessionId}`)).body.session;
  const ready = await waitFor(
    async () => ((await session())?.status === 'READY' ? session() : undefined),
    20_000,
    'READY on A',
  );
  // Host B starts once A holds the session's shard, so A is the one to lose it.
  const hostB = cluster.spawnHost('host-b');

  const send = (text: string) => cluster.sendText(sessionId, text);
  const outbox = async () =>
    ((await anon.get(`/_sim/outbox?sessionId=${sessionId}`)).body.messages ?? []) as Array<{ text: string }>;
  const stop = async (p: ChildProcess, signal: NodeJS.Signals) => {
    const gone = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await gone;
  };
  return { hostA, hostB, ready, session, send, outbox, stop, sessionId, anon, adminApi };
}

describe('failover between connection hosts', () => {
  afterEach(async () => {
    for (const p of procs.splice(0)) await stopProcess(p);
  });

  it('after SIGKILL, delivers commands sent before and during the outage exactly once, in order', async () => {
    const ttl = 3000;
    const c = await twoHosts(ttl);
    for (let i = 0; i < 3; i++) await c.send(`message ${i}`);
    await waitFor(async () => (await c.outbox()).length === 3, 15_000, 'first 3 sent by host A');

    await c.stop(c.hostA, 'SIGKILL');
    const killedAt = Date.now();
    for (let i = 3; i < 8; i++) await c.send(`message ${i}`);

    const texts = await waitFor(
      async () => {
        const o = await c.outbox();
        return o.length >= 8 ? o.map((m) => m.text) : undefined;
      },
      60_000,
      'all 8 delivered after takeover',
    );
    const takeoverMs = Date.now() - killedAt;
    expect(texts).toEqual(Array.from({ length: 8 }, (_, i) => `message ${i}`));
    // B waited for A's lease (renewed every second until the kill) to run out. A command that A had
    // received when it died comes back after the host's short command visibility timeout, not the
    // queue's 60 s: the takeover is bounded by the two.
    expect(takeoverMs).toBeGreaterThanOrEqual(ttl - 1000);
    expect(takeoverMs).toBeLessThan(ttl + COMMAND_VISIBILITY_MS + 5_000);

    // One more command, behind any redelivery of the others in the session's FIFO group: once it is
    // out, nothing sent before it can still come.
    await c.send('message 8');
    const all = await waitFor(
      async () => {
        const o = (await c.outbox()).map((m) => m.text);
        return o.includes('message 8') ? o : undefined;
      },
      20_000,
      'the last command',
    );
    expect(all).toEqual(Array.from({ length: 9 }, (_, i) => `message ${i}`));

    // Auth state survived: READY again on host B with the same number, no new QR.
    const after = await c.session();
    expect(after.status).toBe('READY');
    expect(after.mobile_number).toBe(c.ready.mobile_number);
  }, 120_000);

  it('an inbound message pushed to a host that dies before handing it on reaches the next host, stored once', async () => {
    const c = await twoHosts(3000);
    const unacked = async () =>
      ((await c.anon.get(`/_sim/unacked?sessionId=${c.sessionId}`)).body.messageIds ?? []) as string[];
    const inbound = async (text: string) =>
      (await c.anon.post('/_sim/inbound', { sessionId: c.sessionId, from: '919800000002', text })).body
        .messageId as string;
    const storedIds = async () =>
      (
        (await c.adminApi.get(`/api/v1/formatted?mobid=${c.sessionId}&chatId=919800000002`)).body.messages ??
        []
      ).map((m: { id: string }) => m.id) as string[];

    // Host A hands a first message on and acknowledges it: the network keeps nothing.
    const before = await inbound('before');
    await waitFor(async () => (await storedIds()).includes(before), 15_000, 'first message stored');
    await waitFor(async () => (await unacked()).length === 0, 10_000, 'first message acknowledged');

    // Host A stops reading (SIGSTOP): its link stays open, so the network pushes the next message
    // onto it; then A dies without a close. That message never reached A's hand-off.
    c.hostA.kill('SIGSTOP');
    const lost = await inbound('pushed to a dying host');
    expect(await unacked()).toEqual([lost]);
    await c.stop(c.hostA, 'SIGKILL');

    // Host B takes the session after the lease TTL; the network sends the message again on B's link.
    await waitFor(async () => (await storedIds()).includes(lost), 60_000, 'the message stored via host B');
    await waitFor(async () => (await unacked()).length === 0, 10_000, 'acknowledged by host B');
    const ids = await storedIds();
    expect(ids.filter((id) => id === lost)).toHaveLength(1);
    expect(ids.filter((id) => id === before)).toHaveLength(1);
  }, 120_000);

  it('after SIGTERM, the leases are released at once: host B takes over long before they would expire', async () => {
    const ttl = 30_000;
    const c = await twoHosts(ttl);
    await c.stop(c.hostA, 'SIGTERM');
    const stoppedAt = Date.now();
    await c.send('after a clean stop');
    await waitFor(async () => (await c.outbox()).length === 1, 20_000, 'delivered by host B');
    expect(Date.now() - stoppedAt).toBeLessThan(8000);
    expect(c.hostB.exitCode).toBeNull();
  }, 90_000);
});
