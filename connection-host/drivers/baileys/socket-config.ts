import type { GroupMetadata, UserFacingSocketConfig } from '@whiskeysockets/baileys';
import type { Logger } from '#shared/log/logger';
import type { ProxyRoute } from '../../proxy.ts';
import type { LinkRequest } from '../driver.ts';
import type { DynamoAuthState } from './auth-state.ts';
import type { BaileysDriverOptions } from './options.ts';
import { type KnownMessage, retryContent } from './outbound.ts';
import { baileysCaches } from './session-caches.ts';

/**
 * The options one link's socket is made with: which network, client version and proxy, what it
 * syncs at linking, and where Baileys reads earlier messages and group metadata from.
 */
export function socketConfig(p: {
  request: LinkRequest;
  opts: BaileysDriverOptions;
  auth: DynamoAuthState;
  log: Logger;
  proxy: ProxyRoute | undefined;
  known: (messageId: string) => Promise<KnownMessage | undefined>;
  groups: { get(jid: string): GroupMetadata | undefined };
}): UserFacingSocketConfig {
  const { request, opts, proxy, groups } = p;
  const version = opts.clientVersion?.current ?? opts.version;
  return {
    auth: p.auth.state,
    logger: p.log.child({}, { level: 'warn' }),
    ...(opts.waWebSocketUrl ? { waWebSocketUrl: opts.waWebSocketUrl } : {}),
    ...(version ? { version } : {}),
    ...(opts.browser ? { browser: opts.browser } : {}),
    connectTimeoutMs: opts.connectTimeoutMs ?? 20_000,
    // The socket and media uploads (an http.Agent); downloads take the dispatcher (wire.ts).
    ...(proxy ? { agent: proxy.agent, fetchAgent: proxy.agent } : {}),
    markOnlineOnConnect: false,
    // A session that asked for history (syncHistory) asks the phone for all of it at linking and
    // takes every kind of sync; the others keep Baileys' default (no FULL sync) and report none.
    syncFullHistory: Boolean(request.syncHistory),
    ...(request.syncHistory ? { shouldSyncHistoryMessage: () => true } : {}),
    getMessage: async (key) => (key.id ? retryContent(await p.known(key.id)) : undefined),
    cachedGroupMetadata: async (jid) => groups.get(jid),
    ...baileysCaches(),
  };
}
