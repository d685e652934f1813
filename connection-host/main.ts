import { runConnectionHost } from './run.ts';

/**
 * The connection host's entry: the ECS task's process (connection-host/Dockerfile bundles this file)
 * and the Baileys tests' host processes. Only the drivers in connection-host/drivers/ exist here.
 */
await runConnectionHost();
