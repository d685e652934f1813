import type { WAMessage, WASocket } from '@whiskeysockets/baileys';
import type { Logger } from '#shared/log/logger';
import type { ProxyRoute } from '../../proxy.ts';
import type { DriverEvents, LinkEnd, LinkRequest } from '../driver.ts';
import type { DynamoAuthState } from './auth-state.ts';
import type { ClientVersion } from './client-version.ts';
import { toLinkEnd } from './disconnect.ts';
import { phoneOfJid } from './jids.ts';
import { PASSKEY_NOTIFICATIONS, PASSKEY_REQUIRED, passkeyEnd } from './passkey.ts';
import { fromTimelock } from './restrictions.ts';

/**
 * One link's life: linking (a QR, or a pairing code asked for once), its opening, and its end told
 * once to the host as a `LinkEnd` (through the proxy's words, or the passkey gate's). Baileys has no
 * reconnect loop of its own and we never make a second socket: the runtime reconnects (or not)
 * from the LinkEnd we report.
 */

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

type Upsert = { messages: WAMessage[]; type: string };

export function watchLifecycle(p: {
  sock: WASocket;
  request: LinkRequest;
  /** Digits to link by pairing code (`method: 'phone'`). */
  phone: string | undefined;
  events: DriverEvents;
  log: Logger;
  auth: DynamoAuthState;
  proxy: ProxyRoute | undefined;
  clientVersion: ClientVersion | undefined;
  /** Reports a `messages.upsert` that reached the socket's emitter after the socket ended. */
  lateUpsert: (payload: Upsert) => void;
}): { closedByHost(): void } {
  const { sock, request, phone, events, log, auth, proxy } = p;
  if (proxy) proxy.onAnswer = (status) => void sock.end(new Error(`the proxy answered ${status} to CONNECT`));

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
      const versionLookup = end.code === 405 && p.clientVersion ? p.clientVersion.refresh() : undefined;
      // Creds written on pairing must be stored before the runtime reconnects with them.
      void Promise.allSettled([auth.flush(), versionLookup]).finally(() => events.onClose(end));
    }
  });

  // A message whose receipt went out just before the socket ended reaches Baileys' emitter only
  // after that emitter was destroyed: taken here, where Baileys emits it, and reported.
  const emit = sock.ev.emit.bind(sock.ev);
  sock.ev.emit = ((event: string, data: unknown) => {
    if (ended && event === 'messages.upsert') {
      p.lateUpsert(data as Upsert);
      return true;
    }
    return emit(event as 'messages.upsert', data as never);
  }) as typeof sock.ev.emit;

  // The host closed or logged out the link itself: its close is no news to report.
  return {
    closedByHost() {
      closed = true;
    },
  };
}
