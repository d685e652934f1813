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

/**
 * Maps why Baileys closed the socket to our LinkEnd. Reasons are meant for people (they end up
 * in session status events) and always carry the network's status code.
 */
export function toLinkEnd(error: Error | undefined): LinkEnd {
  const err = error as BoomLike | undefined;
  const status = err?.output?.statusCode;
  const code = networkCode(err);
  if (code) return { kind: 'transient', reason: `network error (${code}): ${detail(err)}` };
  switch (status) {
    case DisconnectReason.restartRequired:
      return { kind: 'restart' };
    case DisconnectReason.timedOut: // also connectionLost
      return {
        kind: 'transient',
        reason: err?.message?.includes('QR refs')
          ? 'linking timed out: the QR / pairing code was not used in time (408)'
          : `connection timed out or lost (408): ${detail(err)}`,
      };
    case DisconnectReason.connectionClosed:
      return { kind: 'transient', reason: `connection closed (428): ${detail(err)}` };
    case DisconnectReason.unavailableService:
      return { kind: 'transient', reason: `service unavailable (503): ${detail(err)}` };
    case DisconnectReason.loggedOut:
      return { kind: 'logged_out', reason: `device logged out (401): ${detail(err)}` };
    case DisconnectReason.connectionReplaced:
      return { kind: 'replaced', reason: `connection replaced by another session (440): ${detail(err)}` };
    case DisconnectReason.forbidden:
      return { kind: 'fatal', reason: `forbidden, account may be banned (403): ${detail(err)}` };
    case DisconnectReason.multideviceMismatch:
      return { kind: 'fatal', reason: `multi-device mismatch (411): ${detail(err)}` };
    case DisconnectReason.badSession:
      return { kind: 'fatal', reason: `bad session (500): ${detail(err)}` };
    default:
      return {
        kind: 'fatal',
        reason: status
          ? `closed with status ${status}: ${detail(err)}`
          : `unexpected error (no status): ${detail(err)}`,
      };
  }
}
