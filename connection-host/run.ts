import { serve } from '@hono/node-server';
import { env } from '#shared/config/env';
import { loadSecrets } from '#shared/config/load-secrets';
import { logger } from '#shared/log/logger';
import { flushMetrics } from '#shared/metrics/flush';
import type { NetworkDriver } from './drivers/driver.ts';
import { startConnectionHost } from './host.ts';
import { hostApp } from './http.ts';

/**
 * The connection host as its own process until SIGTERM or SIGINT. With HOST_HTTP_PORT set it also
 * serves health and the long-lived SSE streams a load balancer sends here. `driver` replaces the one
 * MESSAGING_DRIVER names (local mode injects the simulated network's; main.ts, the image, never does).
 */
export async function runConnectionHost(opts: { driver?: () => NetworkDriver } = {}): Promise<void> {
  await loadSecrets();
  // The signals are heard from the start: a host stopped while it is still taking its first shards
  // hands them over once it holds them, instead of dying with them leased.
  let stopping = false;
  let stopped: () => Promise<void> = async () => {};
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, async () => {
      if (stopping) return;
      stopping = true;
      await starting.catch(() => undefined);
      await stopped();
      flushMetrics();
      process.exit(0);
    });
  }
  const starting = startConnectionHost(opts.driver ? { driver: opts.driver() } : {});
  const host = await starting;
  const port = env().HOST_HTTP_PORT;
  const server = port === undefined ? undefined : serve({ fetch: hostApp().fetch, port });
  logger.info(
    {
      hostId: host.hostId,
      driver: env().MESSAGING_DRIVER,
      shards: host.ownedShards().length,
      httpPort: port ?? null,
    },
    'connection host up',
  );

  // Counters (command queue ages) to CloudWatch once a minute in the cloud; a no-op locally.
  const metrics = setInterval(flushMetrics, 60_000);
  metrics.unref();
  stopped = async () => {
    server?.close();
    await host.stop();
    clearInterval(metrics);
  };
}
