import {
  type GroupMetadata,
  generateMessageIDV2,
  makeWASocket,
  proto,
  S_WHATSAPP_NET,
  WA_CERT_DETAILS,
  type WABrowserDescription,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import { env, runtimeEnv } from '#shared/config/env';
import { LidCache } from '#shared/contacts/lid-cache';
import { type Logger, logger as rootLogger } from '#shared/log/logger';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { STATUS_JID, userJid } from '#shared/phone/jid';
import { digitsOf } from '#shared/phone/number';
import { newChatsRefusal } from '#shared/sessions/restriction';
import { type ProxyRoute, proxyRoute } from '../../proxy.ts';
import { byteCache, recentSet, SESSION_CACHE_BYTES } from '../../session-memory.ts';
import {
  type DriverEvents,
  type DriverLink,
  type LinkEnd,
  type LinkRequest,
  type NetworkDriver,
  SendRefusedError,
  SendUnconfirmedError,
} from '../driver.ts';
import { clearAuthState, loadAuthState } from './auth-state.ts';
import { CallTracker } from './calls.ts';
import { editMessage, revokeMessage } from './changes.ts';
import { checkNumbers } from './check.ts';
import type { ClientVersion } from './client-version.ts';
import { toLinkEnd } from './disconnect.ts';
import { groupAction } from './groups.ts';
import { phoneOfJid } from './normalise.ts';
import {
  type KnownMessage,
  keyOf,
  quotedStub,
  rawMessage,
  retryContent,
  sentWire,
  toJid,
  toMessageContent,
} from './outbound.ts';
import { PASSKEY_NOTIFICATIONS, PASSKEY_REQUIRED, passkeyEnd } from './passkey.ts';
import { markRead } from './read.ts';
import { fromCapping, fromError463, fromTimelock, NEW_CHAT_RESTRICTED_ERROR } from './restrictions.ts';
import { baileysCaches } from './session-caches.ts';
import { wireEvents } from './wire.ts';

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
/** At most this many contacts see a status story (own number and the request's list first). */
export const STATUS_AUDIENCE_MAX = 5000;

/**
 * Settles when the network acks `id`: rejects with `SendRefusedError` (the network's code) on an
 * error ack, and with `SendUnconfirmedError` when the link closes first or no ack comes within
 * `timeoutMs` (the network may still have taken it). `what` names the message in the reasons.
 */
function serverAck(sock: WASocket, id: string, timeoutMs: number, what: string) {
  let cancel = () => {};
  const result = new Promise<void>((resolve, reject) => {
    const onAck = (node: { attrs: Record<string, string> }) => {
      if (node.attrs.id !== id) return;
      done();
      if (node.attrs.error === NEW_CHAT_RESTRICTED_ERROR)
        reject(new SendRefusedError(newChatsRefusal(fromError463(Date.now()))));
      else if (node.attrs.error)
        reject(new SendRefusedError(`the network refused the ${what} (error ${node.attrs.error})`));
      else resolve();
    };
    const onClose = () => {
      done();
      reject(new SendUnconfirmedError(`the link closed before the network acknowledged the ${what}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(
        new SendUnconfirmedError(`the network did not acknowledge the ${what} within ${timeoutMs / 1000} s`),
      );
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      sock.ws.off('CB:ack,class:message', onAck);
      sock.ws.off('close', onClose);
    };
    cancel = done;
    sock.ws.on('CB:ack,class:message', onAck);
    sock.ws.on('close', onClose);
  });
  result.catch(() => undefined); // awaited by the caller unless the send itself failed
  return { result, cancel };
}

/** `p`, or a rejection once `ms` have passed without it settling (`p` itself is left to run). */
function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  p.catch(() => undefined); // settles after the timeout, unobserved
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Ids kept for `ms` after they were remembered. */
function recentIds(ms: number) {
  const ids = new Set<string>();
  return {
    has: (id: string) => ids.has(id),
    remember(id: string) {
      ids.add(id);
      setTimeout(() => ids.delete(id), ms).unref();
    },
  };
}

/**
 * A link through a proxy that ends before it opened: the guard's refusal of the proxy's address
 * ends the session (FAILED, not retried: it would be refused again), and any other end names the
 * proxy (masked) in its reason, so session info shows where the link failed.
 */
function proxiedEnd(end: LinkEnd, proxy: ProxyRoute | undefined, opened: boolean): LinkEnd {
  if (!proxy || opened || end.kind === 'restart') return end;
  if (proxy.refusal) return { kind: 'fatal', reason: proxy.refusal };
  const reason = `through proxy ${proxy.shown}: ${end.reason}`;
  // A proxy that refuses the tunnel (wrong credentials) counts as a refused login: after
  // RECONNECT_MAX_FAILURES in a row the session is FAILED with this reason.
  return proxy.answered ? { kind: 'refused', reason, code: proxy.answered } : { ...end, reason };
}

function trustTestRootKey(): void {
  const { BAILEYS_TEST_ROOT_PUBLIC_KEY: hex, NODE_ENV } = runtimeEnv();
  if (hex && NODE_ENV === 'test') WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(hex, 'hex');
}

/** Every event, named once: a Record, so a callback added to DriverEvents cannot be left unwrapped. */
const EVENTS: Record<keyof DriverEvents, true> = {
  onQr: true,
  onPairingCode: true,
  onOpen: true,
  onClose: true,
  onInbound: true,
  onOwnMessage: true,
  onReceipt: true,
  onSendFailed: true,
  onMessageChange: true,
  onPollVote: true,
  onCall: true,
  onHistory: true,
  onContacts: true,
  onGroup: true,
  onLidMapping: true,
  onActivity: true,
  onRestriction: true,
};
const EVENT_NAMES = Object.keys(EVENTS) as Array<keyof DriverEvents>;
/** Link-state events; data events (messages received before the close) still go through. */
const MUTED = new Set<keyof DriverEvents>(['onQr', 'onPairingCode', 'onOpen', 'onClose', 'onActivity']);

/**
 * Drops link-state events once the host has closed the link itself (it knows, and must not get a
 * second reconnect trigger), and keeps host exceptions out of Baileys.
 */
function muteable(events: DriverEvents, log: Logger) {
  let muted = false;
  const wrapped = {} as Record<keyof DriverEvents, (...args: unknown[]) => void>;
  for (const name of EVENT_NAMES) {
    wrapped[name] = (...args: unknown[]) => {
      if (muted && MUTED.has(name)) return;
      try {
        (events[name] as (...a: unknown[]) => void).apply(events, args);
      } catch (err) {
        log.error({ err, event: name }, 'driver event handler threw');
      }
    };
  }
  return { events: wrapped as unknown as DriverEvents, mute: () => (muted = true) };
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
  // A refusal of a message `send` waits for is that send's answer (it rejects): reported once, there.
  const awaited = new Set<string>();
  const refusedBySend = recentIds(60_000);
  const events: DriverEvents = {
    ...muted,
    onSendFailed: (id, reason) => {
      if (!awaited.has(id) && !refusedBySend.has(id)) muted.onSendFailed(id, reason);
    },
  };
  // Bounded by bytes (session-memory.ts): what falls out is fetched again or read from the store.
  const groups = byteCache<string, GroupMetadata>(SESSION_CACHE_BYTES.groups);
  const contacts = recentSet(SESSION_CACHE_BYTES.contacts);
  const known = async (id: string) =>
    opts.getMessage ? opts.getMessage(sessionId, id).catch(() => undefined) : undefined;

  // Baileys has no reconnect loop of its own; we never make a second socket here. The runtime
  // reconnects (or not) from the LinkEnd we report.
  const sock: WASocket = makeWASocket({
    auth: auth.state,
    logger: log.child({}, { level: 'warn' }),
    ...(opts.waWebSocketUrl ? { waWebSocketUrl: opts.waWebSocketUrl } : {}),
    ...((opts.clientVersion?.current ?? opts.version)
      ? { version: opts.clientVersion?.current ?? opts.version }
      : {}),
    ...(opts.browser ? { browser: opts.browser } : {}),
    connectTimeoutMs: opts.connectTimeoutMs ?? 20_000,
    // The socket and media uploads (an http.Agent); downloads take the dispatcher (wire.ts).
    ...(proxy ? { agent: proxy.agent, fetchAgent: proxy.agent } : {}),
    markOnlineOnConnect: false,
    // A session that asked for history (syncHistory) asks the phone for all of it at linking and
    // takes every kind of sync; the others keep Baileys' default (no FULL sync) and report none.
    syncFullHistory: Boolean(request.syncHistory),
    ...(request.syncHistory ? { shouldSyncHistoryMessage: () => true } : {}),
    getMessage: async (key) => (key.id ? retryContent(await known(key.id)) : undefined),
    cachedGroupMetadata: async (jid) => groups.get(jid),
    ...baileysCaches(),
  });

  const calls = new CallTracker();
  const lids = request.lids ?? new LidCache();
  sock.ev.on('call', (updates) => {
    for (const c of updates) {
      const call = calls.update(c, (lid) => lids.get(lid));
      if (call) events.onCall(call);
    }
  });
  if (proxy) proxy.onAnswer = (status) => void sock.end(new Error(`the proxy answered ${status} to CONNECT`));
  sock.ev.on('message-capping.update', (c) => events.onRestriction(fromCapping(c)));
  // A 463 on any message: the account may not start new chats (Baileys only logs it).
  sock.ws.on('CB:ack,class:message', (node: { attrs: Record<string, string> }) => {
    if (node.attrs.error === NEW_CHAT_RESTRICTED_ERROR) events.onRestriction(fromError463(Date.now()));
  });

  let lastActivity = 0;
  sock.ws.on('frame', () => {
    const now = Date.now();
    if (now - lastActivity < 1000) return;
    lastActivity = now;
    events.onActivity();
  });
  sock.ev.on('creds.update', () => {
    auth.saveCreds().catch((err) => log.error({ err }, 'saving creds failed'));
  });

  let pairingRequested = false;
  /** The link opened once: a later close is not the proxy's doing. */
  let opened = false;
  /** The network asked for a passkey at linking: the link ends for good (passkey.ts). */
  let passkeyAsked = false;
  for (const type of PASSKEY_NOTIFICATIONS)
    sock.ws.on(`CB:notification,type:${type}`, () => {
      if (passkeyAsked || auth.state.creds.account) return; // linked already: not a linking gate
      passkeyAsked = true;
      log.warn({ type }, 'the network asks for a passkey to link this account');
      void sock.end(new Error(PASSKEY_REQUIRED));
    });
  let closed = false;
  /** The socket has ended: Baileys has destroyed its event emitter, listeners and buffer. */
  let ended = false;
  sock.ev.on('connection.update', (u) => {
    if (u.connection === 'close' && !ended) {
      // Baileys holds message events in a buffer while it replays the offline queue (until the
      // network says the replay is done, or 30 s), each message already receipted to the network,
      // and destroys that buffer right after this event: released now, they are reported.
      sock.ev.flush();
      ended = true;
    }
    if (u.reachoutTimeLock) events.onRestriction(fromTimelock(u.reachoutTimeLock));
    if (u.qr) {
      if (request.method === 'qr') events.onQr(u.qr);
      else if (!pairingRequested && phone) {
        pairingRequested = true;
        sock.requestPairingCode(phone).then(
          (code) => events.onPairingCode(code),
          (err: Error) => void sock.end(err),
        );
      }
    }
    if (u.connection === 'open') {
      opened = true;
      events.onOpen({ mobile: phoneOfJid(sock.user?.id) ?? phone ?? '' });
      // Reports every group the account is in (through groups.update → onGroup).
      sock.groupFetchAllParticipating().catch((err) => log.warn({ err }, 'fetching groups failed'));
    }
    if (u.connection === 'close' && !closed) {
      closed = true;
      const end = passkeyAsked ? passkeyEnd() : proxiedEnd(toLinkEnd(u.lastDisconnect?.error), proxy, opened);
      if (end.kind !== 'restart') log.info({ end }, 'link closed');
      // A 405: the network raised its minimum client version. The next login (of every session of
      // the host) announces the current one, looked up before the runtime reconnects (bounded).
      const versionLookup = end.code === 405 && opts.clientVersion ? opts.clientVersion.refresh() : undefined;
      // Creds written on pairing must be stored before the runtime reconnects with them.
      void Promise.allSettled([auth.flush(), versionLookup]).finally(() => events.onClose(end));
    }
  });

  // A message whose receipt went out just before the socket ended reaches Baileys' emitter only
  // after that emitter was destroyed: taken here, where Baileys emits it, and reported.
  const emit = sock.ev.emit.bind(sock.ev);
  sock.ev.emit = ((event: string, data: unknown) => {
    if (ended && event === 'messages.upsert') {
      wiring.upsert(data as Parameters<typeof wiring.upsert>[0]);
      return true;
    }
    return emit(event as 'messages.upsert', data as never);
  }) as typeof sock.ev.emit;

  // Our own sends, which the network echoes back as own messages (wire.ts); the latest ones.
  const sentIds = recentSet(SESSION_CACHE_BYTES.sentIds);
  const rememberSent = (id: string) => sentIds.add(id);
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

  const hostClose = async () => {
    mute();
    closed = true;
    await sock.end(undefined).catch(() => undefined);
    // Messages already received (media downloads in flight) are still reported, within bounds.
    await Promise.race([wiring.drain(), new Promise((r) => setTimeout(r, 15_000).unref())]);
    await auth.flush();
  };

  return {
    async send(messageId, to, content, media) {
      const jid = toJid(to);
      const quoted = content.quotedId
        ? quotedStub(jid, content.quotedId, await known(content.quotedId))
        : undefined;
      rememberSent(messageId);
      // Written to the socket is not taken by the network: `sent` waits for the server's ack.
      const acked = serverAck(sock, messageId, opts.sendAckTimeoutMs ?? 20_000, 'message');
      awaited.add(messageId);
      try {
        let sent: Awaited<ReturnType<WASocket['sendMessage']>>;
        const uploadMs = opts.mediaUploadTimeoutMs ?? 60_000;
        try {
          const raw = rawMessage(content);
          const handing = raw
            ? sock.relayMessage(jid, raw, { messageId }).then(() => undefined)
            : sock.sendMessage(jid, toMessageContent(content, media), {
                messageId,
                ...(quoted ? { quoted } : {}),
                ...(media ? { mediaUploadTimeoutMs: uploadMs } : {}),
              });
          // Baileys bounds each upload attempt, not its upload-host lookup nor the attempts together:
          // a stalled upload must not hold the session's outbound queue. Sent again later with the
          // same id, a late first hand-over is the same message to the network.
          sent = media ? await withinMs(handing, 2 * uploadMs, 'the media upload') : await handing;
        } catch (err) {
          acked.cancel();
          throw new SendUnconfirmedError(
            `the message was not handed to the network: ${(err as Error).message}`,
          );
        }
        const poll = content.kind === 'poll';
        const wire = (media || poll) && opts.rememberSentMedia ? sentWire(sent?.message) : undefined;
        if (wire)
          await opts
            .rememberSentMedia?.(sessionId, messageId, wire, poll ? 'poll' : 'media')
            .catch((err) => log.warn({ err, messageId }, 'keeping the sent media for retries failed'));
        await acked.result;
      } catch (err) {
        if (err instanceof SendRefusedError) refusedBySend.remember(messageId);
        throw err;
      } finally {
        awaited.delete(messageId);
      }
    },
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
    async postStatus(story) {
      const stored = opts.statusAudience ? await opts.statusAudience(sessionId) : [];
      const own = sock.user?.id ? [phoneOfJid(sock.user.id)] : [];
      const audience = [...new Set([...own, ...(story.audience ?? []), ...contacts.values(), ...stored])]
        .filter((p): p is string => !!p)
        .slice(0, STATUS_AUDIENCE_MAX);
      // Media comes fetched by the host through the private-address guard; never hand Baileys a URL.
      if (story.type !== 'text' && !story.media) throw new Error(`a ${story.type} story needs its media`);
      const bytes = story.media ? Buffer.from(story.media.bytes) : undefined;
      const content =
        story.type === 'text' || !bytes
          ? { text: story.content }
          : story.type === 'image'
            ? { image: bytes, mimetype: story.media?.mimetype }
            : { video: bytes, mimetype: story.media?.mimetype };
      // The network answers every message with an ack; one with an error is a refused story.
      const messageId = generateMessageIDV2(sock.user?.id);
      const acked = serverAck(sock, messageId, opts.statusAckTimeoutMs ?? 30_000, 'status story');
      try {
        await sock.sendMessage(STATUS_JID, content, {
          messageId,
          statusJidList: audience.map((p) => userJid(p)),
          ...(story.backgroundColor ? { backgroundColor: story.backgroundColor } : {}),
        });
      } catch (err) {
        acked.cancel();
        throw err;
      }
      await acked.result;
    },
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
      mute();
      closed = true;
      try {
        await sock.logout();
      } finally {
        await sock.end(undefined).catch(() => undefined); // no-op when logout already ended it
        auth.disable();
        await auth.flush();
        await clearAuthState(sessionId);
      }
    },
    close: hostClose,
  };
}
