import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/client.ts';
import { jsonClient } from '../support/http.ts';
import { spawnApi, spawnScript, stopProcess } from '../support/processes.ts';

/**
 * The real driver with the network unreachable: RECONNECTING with a clear reason and a growing
 * attempt count, retried forever (never FAILED: an unreachable network is not the session's fault),
 * no crash loop.
 */
describe('Baileys driver with the network unreachable', () => {
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await stopProcess(p);
  });

  it('stays RECONNECTING with the reason past RECONNECT_MAX_FAILURES attempts, never FAILED, and the host stays up', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
    const prefix = `bu${Date.now() % 1_000_000}`;
    const common = {
      RESOURCE_PREFIX: prefix,
      SHARD_COUNT: '1',
      MESSAGING_DRIVER: 'baileys',
      BAILEYS_WS_URL: `ws://127.0.0.1:${closedPort}/ws/chat`,
      RECONNECT_MAX_FAILURES: '3',
      RECONNECT_BASE_MS: '100',
      RECONNECT_MAX_DELAY_MS: '300',
    };
    const api = await spawnApi({ ...common, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
    procs.push(api.proc);
    const host = spawnScript('connection-host/main.ts', common);
    procs.push(host);
    const token = (
      await jsonClient(api.baseUrl).post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })
    ).body.token;
    const adminApi = jsonClient(api.baseUrl, token);
    // The simulator is off in this process pair: its paths do not exist.
    expect((await fetch(`${api.baseUrl}/_sim/outbox?sessionId=x`)).status).toBe(404);

    type Seen = {
      status: string;
      reason: string | null;
      reconnectAttempt: number;
      nextRetryAt: string | null;
      lastDisconnect: { code: number | null; reason: string } | null;
    };
    const session = async (id: string): Promise<Seen> =>
      (await adminApi.get(`/api/sessions/${id}`)).body.session;
    const id = (await adminApi.post('/api/sessions', { name: 'offline' })).body.session.sessionId;
    const seen: string[] = [];
    const last = await waitFor(
      async () => {
        const now = await session(id);
        if (seen.at(-1) !== now.status) seen.push(now.status);
        // Well past the old budget of RECONNECT_MAX_FAILURES (3) attempts.
        return now.status === 'RECONNECTING' && now.reconnectAttempt >= 8 ? now : undefined;
      },
      45_000,
      'RECONNECTING past 8 attempts',
    );
    expect(last.reason).toMatch(/ECONNREFUSED|network error/);
    expect(last.nextRetryAt).not.toBeNull();
    expect(last.lastDisconnect?.reason).toMatch(/ECONNREFUSED|network error/);
    expect(seen).not.toContain('FAILED');

    // No crash loop: the host still takes work. A second session, created after, is picked up and
    // reported by it; by then the first is still being retried.
    const next = (await adminApi.post('/api/sessions', { name: 'later' })).body.session.sessionId;
    await waitFor(async () => (await session(next)).status === 'RECONNECTING', 20_000, 'the host at work');
    expect(host.exitCode).toBeNull();
    const first = await session(id);
    expect(first.status).toBe('RECONNECTING');
    expect(first.reconnectAttempt).toBeGreaterThanOrEqual(last.reconnectAttempt);
  }, 90_000);
});
