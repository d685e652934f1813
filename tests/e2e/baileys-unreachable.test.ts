import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
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

    const created = await adminApi.post('/api/sessions', { name: 'offline' });
    const id = created.body.session.sessionId;
    const seen: Array<{ status: string; reason: string | null }> = [];
    const deadline = Date.now() + 45_000;
    let last: { status: string; reason: string | null } | undefined;
    while (Date.now() < deadline) {
      last = (await adminApi.get(`/api/sessions/${id}`)).body.session;
      if (last && seen.at(-1)?.status !== last.status)
        seen.push({ status: last.status, reason: last.reason });
      if (last?.status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(last?.status).toBe('FAILED');
    expect(last?.reason).toMatch(/gave up after 3 attempts: .*(ECONNREFUSED|network error)/);
    expect(seen.map((s) => s.status)).toContain('RECONNECTING');
    // No crash loop: the host process is alive and the state stays FAILED.
    await new Promise((r) => setTimeout(r, 1500));
    expect(host.exitCode).toBeNull();
    expect((await adminApi.get(`/api/sessions/${id}`)).body.session.status).toBe('FAILED');
  }, 90_000);
});
