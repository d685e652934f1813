import { env } from '#shared/config/env';
import type { NetworkDriver } from '../../connection-host/drivers/driver.ts';
import { simulatorDriver } from '../../simulator/driver/driver.ts';

/**
 * The driver local mode injects into a connection host: the simulated network's with
 * MESSAGING_DRIVER=simulator, else none (the host builds the one it names). The host never imports
 * simulator/, so its image holds no simulator code.
 */
export function localDriver(): (() => NetworkDriver) | undefined {
  return env().MESSAGING_DRIVER === 'simulator' ? simulatorDriver : undefined;
}
