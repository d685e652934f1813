import { DisconnectReason } from '@whiskeysockets/baileys';
import type { LinkEnd } from '../driver.ts';

/** Socket-level error codes that mean "the network is not there right now". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

interface BoomLike {
  message?: string;
  code?: unknown;
  output?: { statusCode?: number };
  data?: unknown;
  cause?: unknown;
}

/** The first network error code found on the error, its Boom `data` or its `cause`. */
function networkCode(err: BoomLike | undefined, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 3) return undefined;
  if (typeof err.code === 'string' && NETWORK_CODES.has(err.code)) return err.code;
  const fromMsg = err.message?.match(/\b(E[A-Z_]{4,}|UND_ERR_[A-Z_]+)\b/)?.[1];
  if (fromMsg && NETWORK_CODES.has(fromMsg)) return fromMsg;
  return networkCode(err.data as BoomLike, depth + 1) ?? networkCode(err.cause as BoomLike, depth + 1);
}

const detail = (err: BoomLike | undefined) => {
  const inner = (err?.data as BoomLike | undefined)?.message;
  const msg = err?.message ?? 'no error given';
  return inner && !msg.includes(inner) ? `${msg}: ${inner}` : msg;
};

/** The network's "method not allowed" at login: in practice an outdated client version (BAILEYS_VERSION). */
const LOGIN_NOT_ALLOWED = 405;

/**
 * Maps why Baileys closed the socket to our LinkEnd (the policy table is in docs/sessions.md).
 * Reasons are meant for people (they end up in session status events and session info) and always
 * carry the network's status code. Only 401 (logged out) and 403 (banned) end a session at once;
 * a login the network refuses (`<failure>`, e.g. 405) is `refused`, retried and counted; every other
 * close is retried forever.
 */
export function toLinkEnd(error: Error | undefined): LinkEnd {
  const err = error as BoomLike | undefined;
  const status = err?.output?.statusCode;
  const code = networkCode(err);
  if (code) return { kind: 'transient', reason: `network error (${code}): ${detail(err)}` };
  // The socket failed or closed under Baileys (e.g. dropped before login): its 500 is Boom's default,
  // not a status from the network.
  if (err?.message?.startsWith('WebSocket Error') && (status === undefined || status === 500))
    return { kind: 'transient', reason: `network error (socket closed): ${detail(err)}` };
  // Baileys reports the network's `<failure reason=…>` at login as "Connection Failure".
  const atLogin = err?.message === 'Connection Failure';
  switch (status) {
    case DisconnectReason.restartRequired:
      return { kind: 'restart', code: status };
    case DisconnectReason.loggedOut:
      return { kind: 'logged_out', code: status, reason: `device logged out (401): ${detail(err)}` };
    case DisconnectReason.forbidden:
      return {
        kind: 'fatal',
        code: status,
        reason: `forbidden, the account may be banned (403): ${detail(err)}`,
      };
    case DisconnectReason.connectionReplaced:
      return {
        kind: 'replaced',
        code: status,
        reason: `connection replaced: another client logged in with this session's credentials (440): ${detail(err)}`,
      };
    case LOGIN_NOT_ALLOWED:
      return {
        kind: 'refused',
        code: status,
        reason: `login refused (405): the network usually answers this to an outdated client version (the host looks the current one up; BAILEYS_VERSION overrides): ${detail(err)}`,
      };
    case DisconnectReason.multideviceMismatch:
      return { kind: 'refused', code: status, reason: `multi-device mismatch (411): ${detail(err)}` };
    case DisconnectReason.timedOut: // also connectionLost
      return err?.message?.includes('QR refs')
        ? {
            kind: 'refused',
            code: status,
            reason: 'linking timed out: the QR / pairing code was not used in time (408)',
          }
        : { kind: 'transient', code: status, reason: `connection timed out or lost (408): ${detail(err)}` };
    case DisconnectReason.connectionClosed:
      return { kind: 'transient', code: status, reason: `connection closed (428): ${detail(err)}` };
    case DisconnectReason.unavailableService:
      return { kind: 'transient', code: status, reason: `service unavailable (503): ${detail(err)}` };
    case DisconnectReason.badSession:
      // Baileys' name for any stream error it has no code for, e.g. "Stream Errored (ack)", which
      // real accounts see every few hours: the next login works. A refused login is counted.
      return atLogin
        ? { kind: 'refused', code: status, reason: `login refused (500): ${detail(err)}` }
        : { kind: 'transient', code: status, reason: `stream error (500): ${detail(err)}` };
    default:
      if (status === undefined)
        return { kind: 'transient', reason: `closed without a status: ${detail(err)}` };
      return {
        kind: atLogin ? 'refused' : 'transient',
        code: status,
        reason: `${atLogin ? 'login refused' : 'closed'} with status ${status}: ${detail(err)}`,
      };
  }
}
