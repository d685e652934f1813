import { runConnectionHost } from '../../connection-host/run.ts';
import { localDriver } from './local-driver.ts';

/**
 * A connection host as its own process on AWS endpoints that are already running, with the driver
 * local mode uses (the simulated network's under MESSAGING_DRIVER=simulator). Tests and benches start
 * extra hosts this way (failover, several hosts); the image runs connection-host/main.ts instead.
 */
const driver = localDriver();
await runConnectionHost(driver ? { driver } : {});
