import {
  type GroupMetadata,
  makeWASocket,
  proto,
  S_WHATSAPP_NET,
  WA_CERT_DETAILS,
} from '@whiskeysockets/baileys';
import { env, runtimeEnv } from '#shared/config/env';
import { LidCache } from '#shared/contacts/lid-cache';
import { logger as rootLogger } from '#shared/log/logger';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { digitsOf } from '#shared/phone/number';
import { proxyRoute } from '../../proxy.ts';
import { byteCache, recentSet, SESSION_CACHE_BYTES } from '../../session-memory.ts';
import type { DriverEvents, DriverLink, LinkRequest, NetworkDriver } from '../driver.ts';
import { clearAuthState, loadAuthState } from './auth-state.ts';
import { editMessage, revokeMessage } from './changes.ts';
import { checkNumbers } from './check.ts';
import { groupAction } from './groups.ts';
import { muteable, sendAwareEvents } from './host-events.ts';
import { watchLifecycle } from './link-lifecycle.ts';
import { watchSignals } from './link-signals.ts';
import type { BaileysDriverOptions, LinkContext } from './options.ts';
import { keyOf, toJid } from './outbound.ts';
import { markRead } from './read.ts';
import { sendMessage } from './send.ts';
import { socketConfig } from './socket-config.ts';
import { postStatus } from './status-post.ts';
import { wireEvents } from './wire.ts';

/**
 * The Baileys driver: one socket per link, built in layers as Baileys builds its own: the socket's
 * options (socket-config.ts), the host's events as the link hands them on (host-events.ts), the
 * socket's signals (link-signals.ts), the link's life (link-lifecycle.ts), its data events
 * (wire.ts), and the `DriverLink` below, whose sends live in send.ts and status-post.ts.
 */

export function baileysDriver(opts: BaileysDriverOptions = {}): NetworkDriver {
  trustTestRootKey();
  return {
    name: 'baileys',
    clearAuth: (sessionId) => clearAuthState(sessionId),
    connect: (request, events) => connect(request, events, opts),
  };
}

/**
 * TEST ONLY: a host process run against the fake network (tests/support/fake-network) must accept
 * that network's certificate chain, signed by a test root instead of the network's. Applies only
 * under NODE_ENV=test; anywhere else the variable is ignored.
 */
function trustTestRootKey(): void {
  const { BAILEYS_TEST_ROOT_PUBLIC_KEY: hex, NODE_ENV } = runtimeEnv();
  if (hex && NODE_ENV === 'test') WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(hex, 'hex');
}

async function connect(
  request: LinkRequest,
  hostEvents: DriverEvents,
  opts: BaileysDriverOptions,
): Promise<DriverLink> {
  const { sessionId } = request;
  const log = (opts.logger ?? rootLogger).child({ component: 'baileys', sessionId });
  const phone = request.phoneNumber ? digitsOf(request.phoneNumber) : undefined;
  if (request.method === 'phone' && !phone) throw new Error('linking by phone needs a phone number');

  // Before anything is loaded: a proxy the guard refuses fails the session (ProxyRefusedError).
  const proxy = request.proxyUrl
    ? proxyRoute(request.proxyUrl, opts.allowPrivateProxy ?? env().WEBHOOK_ALLOW_PRIVATE_TARGETS)
    : undefined;
  const auth = await loadAuthState(sessionId, request.lease);
  // A pairing-code request stores `me` before the phone confirms; without `account` the link never
  // completed, and Baileys would try to log in with it. Start linking afresh instead.
  if (auth.state.creds.me && !auth.state.creds.account) {
    auth.state.creds.me = undefined;
    auth.state.creds.pairingCode = undefined;
  }
  const { events: muted, mute } = muteable(hostEvents, log);
  const { events, sends } = sendAwareEvents(muted);
  // Bounded by bytes (session-memory.ts): what falls out is fetched again or read from the store.
  const groups = byteCache<string, GroupMetadata>(SESSION_CACHE_BYTES.groups);
  const contacts = recentSet(SESSION_CACHE_BYTES.contacts);
  const known = async (id: string) =>
    opts.getMessage ? opts.getMessage(sessionId, id).catch(() => undefined) : undefined;

  const sock = makeWASocket(socketConfig({ request, opts, auth, log, proxy, known, groups }));
  const lids = request.lids ?? new LidCache();
  const calls = watchSignals({ sock, events, log, auth, lids });
  const lifecycle = watchLifecycle({
    sock,
    request,
    phone,
    events,
    log,
    auth,
    proxy,
    clientVersion: opts.clientVersion,
    lateUpsert: (payload) => wiring.upsert(payload),
  });

  // Our own sends, which the network echoes back as own messages (wire.ts); the latest ones.
  const sentIds = recentSet(SESSION_CACHE_BYTES.sentIds);
  const wiring = wireEvents({
    sock,
    events,
    log,
    groups,
    contacts,
    sentIds,
    lids,
    polls: async (id) => {
      const wire = (await known(id))?.wire;
      return wire ? proto.Message.decode(wire) : undefined;
    },
    ...(proxy ? { mediaDispatcher: proxy.dispatcher } : {}),
    ...(request.syncHistory ? { history: request.syncHistory } : {}),
    maxMediaBytes: opts.maxMediaBytes ?? MEDIA_MAX_BYTES,
    mediaTimeoutMs: opts.mediaTimeoutMs ?? 60_000,
  });

  const link: LinkContext = { sock, sessionId, log, opts, known };
  const closedByHost = () => {
    mute();
    lifecycle.closedByHost();
  };
  return {
    send: (messageId, to, content, media) =>
      sendMessage({ ...link, sends, rememberSent: (id) => sentIds.add(id) }, messageId, to, content, media),
    async presence({ to, type }) {
      await sock.sendPresenceUpdate(type, toJid(to));
    },
    async react(to, messageId, emoji) {
      const jid = toJid(to);
      await sock.sendMessage(jid, {
        react: { text: emoji, key: keyOf(jid, messageId, await known(messageId)) },
      });
    },
    async pin(chatId, pin) {
      await sock.chatModify({ pin }, toJid(chatId));
    },
    async read(chatId, messages) {
      await markRead(sock, chatId, messages);
    },
    checkNumbers: (numbers) => checkNumbers(sock, numbers),
    edit: (chatId, messageId, text) => editMessage(sock, chatId, messageId, text),
    revoke: (chatId, messageId) => revokeMessage(sock, chatId, messageId),
    postStatus: (story) => postStatus({ ...link, contacts }, story),
    async groupAction(a) {
      return groupAction(sock, a, (g) => {
        groups.set(g.id, g);
      });
    },
    async rejectCall(callId) {
      const caller = calls.callerOf(callId);
      if (!caller) throw new Error(`no call ${callId} rang this link`);
      await sock.rejectCall(callId, caller);
    },
    async probe() {
      await sock.query(
        {
          tag: 'iq',
          attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'w:p' },
          content: [{ tag: 'ping', attrs: {} }],
        },
        opts.probeTimeoutMs ?? 10_000,
      );
    },
    async logout() {
      closedByHost();
      try {
        await sock.logout();
      } finally {
        await sock.end(undefined).catch(() => undefined); // no-op when logout already ended it
        auth.disable();
        await auth.flush();
        await clearAuthState(sessionId);
      }
    },
    async close() {
      closedByHost();
      await sock.end(undefined).catch(() => undefined);
      // Messages already received (media downloads in flight) are still reported, within bounds.
      await Promise.race([wiring.drain(), new Promise((r) => setTimeout(r, 15_000).unref())]);
      await auth.flush();
    },
  };
}
