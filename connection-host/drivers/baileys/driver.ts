import {
  type GroupMetadata,
  generateMessageIDV2,
  makeWASocket,
  S_WHATSAPP_NET,
  WA_CERT_DETAILS,
  type WABrowserDescription,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import { LidCache } from '#shared/contacts/lid-cache';
import { type Logger, logger as rootLogger } from '#shared/log/logger';
import { STATUS_JID, userJid } from '#shared/phone/jid';
import { digitsOf } from '#shared/phone/number';
import type { DriverEvents, DriverLink, LinkRequest, NetworkDriver } from '../driver.ts';
import { clearAuthState, loadAuthState } from './auth-state.ts';
import { toLinkEnd } from './disconnect.ts';
import { groupAction } from './groups.ts';
import { phoneOfJid } from './normalise.ts';
import {
  type KnownMessage,
  keyOf,
  quotedStub,
  retryContent,
  sentMediaWire,
  toJid,
  toMessageContent,
} from './outbound.ts';
import { wireEvents } from './wire.ts';

export interface BaileysDriverOptions {
  /** What the store knows of an earlier message: quotes, reactions and retries use it. */
  getMessage?: (sessionId: string, messageId: string) => Promise<KnownMessage | undefined>;
  /** The session's stored contacts (phone digits, most recent first): who sees status posts. */
  statusAudience?: (sessionId: string) => Promise<string[]>;
  /** Keeps the network form of a sent media message (sentMediaWire) for retries after a restart. */
  rememberSentMedia?: (sessionId: string, messageId: string, wire: Uint8Array) => Promise<void>;
  /** How long a status post waits for the network's ack before it is reported failed. */
  statusAckTimeoutMs?: number;
  /** Network endpoint; tests point it at an unreachable address. */
  waWebSocketUrl?: string;
  connectTimeoutMs?: number;
  probeTimeoutMs?: number;
  /** Inbound media larger than this is reported without bytes. */
  maxMediaBytes?: number;
  mediaTimeoutMs?: number;
  version?: WAVersion;
  browser?: WABrowserDescription;
  logger?: Logger;
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
 * Settles when the network acks `id`: rejects with the network's code on an error ack, or when no
 * ack comes within `timeoutMs` (the story may still have been posted; it is reported as failed).
 */
function serverAck(sock: WASocket, id: string, timeoutMs: number) {
  let cancel = () => {};
  const result = new Promise<void>((resolve, reject) => {
    const onAck = (node: { attrs: Record<string, string> }) => {
      if (node.attrs.id !== id) return;
      done();
      if (node.attrs.error)
        reject(new Error(`the network refused the status story (error ${node.attrs.error})`));
      else resolve();
    };
    const onClose = () => {
      done();
      reject(new Error('the link closed before the network acknowledged the status story'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the network did not acknowledge the status story within ${timeoutMs / 1000} s`));
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

function trustTestRootKey(): void {
  const hex = process.env.BAILEYS_TEST_ROOT_PUBLIC_KEY;
  if (hex && process.env.NODE_ENV === 'test') WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(hex, 'hex');
}

/** How many of its latest send ids a link keeps to tell its own echoes from the phone's messages. */
const SENT_IDS_KEPT = 500;

const EVENT_NAMES = [
  'onQr',
  'onPairingCode',
  'onOpen',
  'onClose',
  'onInbound',
  'onOwnMessage',
  'onReceipt',
  'onSendFailed',
  'onContacts',
  'onGroup',
  'onLidMapping',
  'onActivity',
] as const satisfies ReadonlyArray<keyof DriverEvents>;
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

  const auth = await loadAuthState(sessionId, request.lease);
  // A pairing-code request stores `me` before the phone confirms; without `account` the link never
  // completed, and Baileys would try to log in with it. Start linking afresh instead.
  if (auth.state.creds.me && !auth.state.creds.account) {
    auth.state.creds.me = undefined;
    auth.state.creds.pairingCode = undefined;
  }
  const { events, mute } = muteable(hostEvents, log);
  const groups = new Map<string, GroupMetadata>();
  const contacts = new Set<string>();
  const known = async (id: string) =>
    opts.getMessage ? opts.getMessage(sessionId, id).catch(() => undefined) : undefined;

  // Baileys has no reconnect loop of its own; we never make a second socket here. The runtime
  // reconnects (or not) from the LinkEnd we report.
  const sock: WASocket = makeWASocket({
    auth: auth.state,
    logger: log.child({}, { level: 'warn' }),
    ...(opts.waWebSocketUrl ? { waWebSocketUrl: opts.waWebSocketUrl } : {}),
    ...(opts.version ? { version: opts.version } : {}),
    ...(opts.browser ? { browser: opts.browser } : {}),
    connectTimeoutMs: opts.connectTimeoutMs ?? 20_000,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    getMessage: async (key) => (key.id ? retryContent(await known(key.id)) : undefined),
    cachedGroupMetadata: async (jid) => groups.get(jid),
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
  let closed = false;
  sock.ev.on('connection.update', (u) => {
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
      events.onOpen({ mobile: phoneOfJid(sock.user?.id) ?? phone ?? '' });
      // Reports every group the account is in (through groups.update → onGroup).
      sock.groupFetchAllParticipating().catch((err) => log.warn({ err }, 'fetching groups failed'));
    }
    if (u.connection === 'close' && !closed) {
      closed = true;
      const end = toLinkEnd(u.lastDisconnect?.error);
      if (end.kind !== 'restart') log.info({ end }, 'link closed');
      // Creds written on pairing must be stored before the runtime reconnects with them.
      void auth.flush().finally(() => events.onClose(end));
    }
  });

  // Our own sends, which the network echoes back as own messages (wire.ts); the latest few hundred.
  const sentIds = new Set<string>();
  const rememberSent = (id: string) => {
    sentIds.add(id);
    if (sentIds.size > SENT_IDS_KEPT) sentIds.delete(sentIds.values().next().value as string);
  };
  const wiring = wireEvents({
    sock,
    events,
    log,
    groups,
    contacts,
    sentIds,
    lids: request.lids ?? new LidCache(),
    maxMediaBytes: opts.maxMediaBytes ?? 64 * 1024 * 1024,
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
      const sent = await sock.sendMessage(jid, toMessageContent(content, media), {
        messageId,
        ...(quoted ? { quoted } : {}),
      });
      const wire = media && opts.rememberSentMedia ? sentMediaWire(sent?.message) : undefined;
      if (wire)
        await opts
          .rememberSentMedia?.(sessionId, messageId, wire)
          .catch((err) => log.warn({ err, messageId }, 'keeping the sent media for retries failed'));
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
    async postStatus(story) {
      const stored = opts.statusAudience ? await opts.statusAudience(sessionId) : [];
      const own = sock.user?.id ? [phoneOfJid(sock.user.id)] : [];
      const audience = [...new Set([...own, ...(story.audience ?? []), ...contacts, ...stored])]
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
      const acked = serverAck(sock, messageId, opts.statusAckTimeoutMs ?? 30_000);
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
