import { env } from '#shared/config/env';
import type { StoredMessage } from '#shared/messages/message';
import type { NetworkDriver } from './driver.ts';
import { simulatorDriver } from './simulator/driver.ts';

export interface DriverDeps {
  /** The stored message with this id, for the network's retries, quotes and reactions. */
  getMessage(
    sessionId: string,
    messageId: string,
  ): Promise<(StoredMessage & { wire?: Uint8Array }) | undefined>;
  /** Keeps the network form of a sent media message for retries (connection-host/sent-media.ts). */
  rememberSentMedia?(sessionId: string, messageId: string, wire: Uint8Array): Promise<void>;
  /** The session's stored contacts (phone digits, most recent first): the status audience. */
  statusAudience?(sessionId: string): Promise<string[]>;
}

/** The driver named by MESSAGING_DRIVER. Baileys is loaded only when used. */
export async function createDriver(name: 'baileys' | 'simulator', deps: DriverDeps): Promise<NetworkDriver> {
  if (name === 'simulator') return simulatorDriver();
  const { baileysDriver } = await import('./baileys/driver.ts');
  const { BAILEYS_WS_URL, BAILEYS_VERSION } = env();
  return baileysDriver({
    getMessage: deps.getMessage,
    ...(deps.statusAudience ? { statusAudience: deps.statusAudience } : {}),
    ...(deps.rememberSentMedia ? { rememberSentMedia: deps.rememberSentMedia } : {}),
    waWebSocketUrl: BAILEYS_WS_URL,
    version: BAILEYS_VERSION,
  });
}
