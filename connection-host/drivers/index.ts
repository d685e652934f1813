import type { NetworkDriver } from './driver.ts';
import { simulatorDriver } from './simulator.ts';

/** The driver named by MESSAGING_DRIVER. Baileys is loaded only when used. */
export async function createDriver(name: 'baileys' | 'simulator'): Promise<NetworkDriver> {
  if (name === 'simulator') return simulatorDriver();
  const { baileysDriver } = await import('./baileys/driver.ts');
  return baileysDriver();
}
