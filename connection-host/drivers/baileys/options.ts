import type { WABrowserDescription, WASocket, WAVersion } from '@whiskeysockets/baileys';
import type { Logger } from '#shared/log/logger';
import type { ClientVersion } from './client-version.ts';
import type { KnownMessage } from './outbound.ts';

/** What the Baileys driver is given (docs/baileys-driver.md, "Options"), and what one link's parts share. */

export interface BaileysDriverOptions {
  /** What the store knows of an earlier message: quotes, reactions and retries use it. */
  getMessage?: (sessionId: string, messageId: string) => Promise<KnownMessage | undefined>;
  /** The session's stored contacts (phone digits, most recent first): who sees status posts. */
  statusAudience?: (sessionId: string) => Promise<string[]>;
  /**
   * Keeps the network form of a sent media message or poll (sentWire): retries after a restart
   * send it again, and a poll's secret decrypts its votes (poll-votes.ts).
   */
  rememberSentMedia?: (
    sessionId: string,
    messageId: string,
    wire: Uint8Array,
    keep?: 'media' | 'poll',
  ) => Promise<void>;
  /** How long a status post waits for the network's ack before it is reported failed. */
  statusAckTimeoutMs?: number;
  /** How long `send` waits for the network's ack of a message before it rejects as unconfirmed. */
  sendAckTimeoutMs?: number;
  /** Network endpoint; tests point it at an unreachable address. */
  waWebSocketUrl?: string;
  connectTimeoutMs?: number;
  probeTimeoutMs?: number;
  /** Inbound media larger than this is reported without bytes. */
  maxMediaBytes?: number;
  mediaTimeoutMs?: number;
  /** Bounds a send's media upload (each upload attempt, and the whole hand-over): 60 s. */
  mediaUploadTimeoutMs?: number;
  version?: WAVersion;
  /**
   * The host's client version (shared by its sessions): announced at login, and looked up afresh
   * when the network refuses a login with 405. Without it, `version` (or Baileys' built-in one).
   */
  clientVersion?: ClientVersion;
  browser?: WABrowserDescription;
  logger?: Logger;
  /** Whether a session's proxy may be on a private address; WEBHOOK_ALLOW_PRIVATE_TARGETS when not given. */
  allowPrivateProxy?: boolean;
}

/** One open link, as its sending parts (send.ts, status-post.ts) need it. */
export interface LinkContext {
  sock: WASocket;
  sessionId: string;
  log: Logger;
  opts: BaileysDriverOptions;
  /** What the store knows of an earlier message of the session; undefined when nothing (or it failed). */
  known(messageId: string): Promise<KnownMessage | undefined>;
}
