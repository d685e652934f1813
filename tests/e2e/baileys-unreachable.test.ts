import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/client.ts';
import { jsonClient } from '../support/http.ts';
import { spawnApi, spawnScript, stopProcess } from '../support/processes.ts';

/** The real driver with the network unreachable: a documented error state, a clear reason, no crash loop. */
describe('Baileys driver with the network unreachable', () => {
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await stopProcess(p);
  });

  it('goes RECONNECTING with the reason, then FAILED after the configured attempts, and the host stays up', async () => {
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

    type Seen = { status: string; reason: string | null };
    const session = async (id: string): Promise<Seen> =>
      (await adminApi.get(`/api/sessions/${id}`)).body.session;
    const id = (await adminApi.post('/api/sessions', { name: 'offline' })).body.session.sessionId;
    const seen: string[] = [];
    const last = await waitFor(
      async () => {
        const now = await session(id);
        if (seen.at(-1) !== now.status) seen.push(now.status);
        return now.status === 'FAILED' ? now : undefined;
      },
      45_000,
      'FAILED',
    );
    expect(last.reason).toMatch(/gave up after 3 attempts: .*(ECONNREFUSED|network error)/);
    expect(seen).toContain('RECONNECTING');

    // No crash loop: after giving up, the host still takes work. A second session, created after,
    // is picked up and reported by it; by then the first is still FAILED.
    const next = (await adminApi.post('/api/sessions', { name: 'later' })).body.session.sessionId;
    const byHost = ['RECONNECTING', 'FAILED'];
    await waitFor(async () => byHost.includes((await session(next)).status), 20_000, 'the host at work');
    expect(host.exitCode).toBeNull();
    expect((await session(id)).status).toBe('FAILED');
  }, 90_000);
});
