import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { HOST_LIVENESS_PATH } from '#shared/host/paths';
import { freePort } from '../../scripts/local/free-port.ts';
import { waitFor } from '../support/client.ts';
import { spawnScript, stopProcess } from '../support/processes.ts';

let host: ChildProcess | undefined;
afterAll(async () => {
  if (host) await stopProcess(host);
});

/**
 * What the load balancer and ECS ask a host (`/health/live`) calls no dependency, so an outage of
 * one does not get every host replaced and its sessions dropped; `/health` (readiness) names it.
 */
describe('connection host liveness and readiness', () => {
  it('with DynamoDB unreachable the host stays alive (200) and readiness says DynamoDB failed (503)', async () => {
    const port = await freePort();
    const deadDynamo = await freePort();
    host = spawnScript('scripts/local/host-process.ts', {
      // The running service's bucket and queues (reachable); its leases stay out of reach.
      HOST_ID: 'liveness',
      HOST_HTTP_PORT: String(port),
      // Nothing listens here: every DynamoDB call (lease ticks included) fails.
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${deadDynamo}`,
      LOG_LEVEL: 'fatal',
    });
    const url = `http://127.0.0.1:${port}`;
    const live = await waitFor(
      async () => fetch(`${url}${HOST_LIVENESS_PATH}`).catch(() => undefined),
      30_000,
      'the host to answer',
    );
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ success: true, eventLoopDelayMaxMs: expect.any(Number) });

    const ready = await fetch(`${url}/health`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as {
      success: boolean;
      checks: Record<string, { ok: boolean; error?: string }>;
    };
    expect(body.success).toBe(false);
    expect(body.checks.dynamodb).toMatchObject({ ok: false, error: expect.any(String) });
    expect(body.checks.s3?.ok).toBe(true);
    expect(body.checks.sqs?.ok).toBe(true);
    expect(body.checks.secrets?.ok).toBe(true);

    // Still alive after some failed lease ticks (renewed every min(ttl/3, 2 s)).
    await new Promise((r) => setTimeout(r, 3000));
    expect(host.exitCode).toBeNull();
    expect((await fetch(`${url}${HOST_LIVENESS_PATH}`)).status).toBe(200);
  }, 60_000);
});
