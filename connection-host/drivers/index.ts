import { env } from '#shared/config/env';
import type { StoredMessage } from '#shared/messages/message';
import type { NetworkDriver } from './driver.ts';

export interface DriverDeps {
  /** The stored message with this id, for the network's retries, quotes and reactions. */
  getMessage(
    sessionId: string,
    messageId: string,
  ): Promise<(StoredMessage & { wire?: Uint8Array }) | undefined>;
  /**
   * Keeps the network form of a sent media message for retries, or of a poll for decrypting its
   * votes, which is kept longer (connection-host/sent-media.ts).
   */
  rememberSentMedia?(
    sessionId: string,
    messageId: string,
    wire: Uint8Array,
    keep?: 'media' | 'poll',
  ): Promise<void>;
  /** The session's stored contacts (phone digits, most recent first): the status audience. */
  statusAudience?(sessionId: string): Promise<string[]>;
}

/**
 * The driver named by MESSAGING_DRIVER. Baileys is loaded only when used. The simulated network's
 * driver is not part of the host (nor of its image: simulator/ is test and demo code); local mode and
 * the tests inject it (`scripts/local/local-driver.ts`), so asking for it here is a configuration error.
 */
export async function createDriver(name: 'baileys' | 'simulator', deps: DriverDeps): Promise<NetworkDriver> {
  if (name === 'simulator') {
    throw new Error(
      'MESSAGING_DRIVER=simulator: the simulated driver is not built into the connection host; ' +
        'run the host through scripts/local/host-process.ts (tests, demos) or use baileys',
    );
  }
  const { baileysDriver } = await import('./baileys/driver.ts');
  const { ClientVersion } = await import('./baileys/client-version.ts');
  const { logger } = await import('#shared/log/logger');
  const { BAILEYS_WS_URL, BAILEYS_VERSION } = env();
  return baileysDriver({
    getMessage: deps.getMessage,
    ...(deps.statusAudience ? { statusAudience: deps.statusAudience } : {}),
    ...(deps.rememberSentMedia ? { rememberSentMedia: deps.rememberSentMedia } : {}),
    waWebSocketUrl: BAILEYS_WS_URL,
    clientVersion: new ClientVersion({
      ...(BAILEYS_VERSION ? { pinned: BAILEYS_VERSION } : {}),
      log: logger.child({ component: 'client-version' }),
    }),
  });
}
