import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/local/free-port.ts';
import { sessionReady, waitFor } from '../support/client.ts';
import { jsonClient } from '../support/http.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';

const procs: ChildProcess[] = [];
// Inside the repository, so the bundle's external packages (sharp) resolve from node_modules as in the image.
const bundle = `dist/host-test-${process.pid}.mjs`;
afterAll(async () => {
  for (const p of procs.splice(0)) await stopProcess(p);
  rmSync(bundle, { force: true });
  rmSync(`${bundle}.map`, { force: true });
});

describe('the bundled connection host (what the Dockerfile runs)', () => {
  it('`node dist/host.mjs` with no tsx links a simulated session, sends a message and serves /health', async () => {
    execFileSync(process.execPath, ['scripts/build-host.mjs', bundle], { stdio: 'inherit' });
    const prefix = `hb${Date.now() % 1_000_000}`;
    const common = { RESOURCE_PREFIX: prefix, SHARD_COUNT: '2', SEND_INTERVAL_MS: '0' };
    const api = await spawnApi({ ...common, SIM_NETWORK_URL: '', PUBLIC_BASE_URL: '' });
    procs.push(api.proc);

    const httpPort = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...inject('serviceEnv'),
      LOG_LEVEL: 'warn',
      ...common,
      SIM_NETWORK_URL: api.baseUrl,
      MESSAGING_DRIVER: 'simulator',
      HOST_ID: 'bundled',
      HOST_HTTP_PORT: String(httpPort),
    };
    // Exactly the image's command: plain node, no loader.
    const host = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    host.stdout?.pipe(process.stderr);
    procs.push(host);

    const anon = jsonClient(api.baseUrl);
    const token = (await anon.post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })).body.token;
    const admin = jsonClient(api.baseUrl, token);
    const created = await admin.post('/api/sessions', { name: 'bundled host' });
    const sessionId: string = created.body.session.sessionId;
    const session = await sessionReady(admin, sessionId, 30_000);
    const sent = await admin.post('/api/messages/send', {
      sessionId: session.mobid ?? sessionId,
      to: '919800000001',
      message: 'from the bundle',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const outbox = await waitFor(
      async () => {
        const o = ((await anon.get(`/_sim/outbox?sessionId=${sessionId}`)).body.messages ?? []) as Array<{
          text: string;
        }>;
        return o.length > 0 ? o : undefined;
      },
      20_000,
      'sent by the bundled host',
    );
    expect(outbox.map((m) => m.text)).toEqual(['from the bundle']);
    const health = await fetch(`http://127.0.0.1:${httpPort}/health`);
    expect(health.status).toBe(200);
    expect(host.exitCode).toBeNull();
  }, 120_000);
});
