import { env } from '#shared/config/env';
import { logger } from '#shared/log/logger';
import { startConnectionHost } from './host.ts';

/** The connection host as its own process (ECS task; also used by the failover test). */
const host = await startConnectionHost();
logger.info(
  { hostId: host.hostId, driver: env().MESSAGING_DRIVER, shards: host.ownedShards() },
  'connection host up',
);

let stopping = false;
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    await host.stop();
    process.exit(0);
  });
}
