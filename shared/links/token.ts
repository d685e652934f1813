import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a link lets its holder fetch, until when, and under which of its tenant's link epochs. */
export interface LinkClaims {
  tenant: string;
  /** The object's key in the media bucket. */
  key: string;
  kind: LinkKind;
  /** Epoch seconds after which the link is refused. */
  expiresAt: number;
  /** The tenant's link epoch when the link was made; rotating it revokes every earlier link. */
  epoch: number;
}

export type LinkKind = 'media' | 'qr' | 'export' | 'tts';

const KINDS = new Set<string>(['media', 'qr', 'export', 'tts']);
const VERSION = 'v1';
/** Bound to this purpose: a link's MAC is never a valid signature of anything else the secret signs. */
const LABEL = 'wsm links v1';

/** The link key: an HMAC of the label under the secret (LINK_SECRET, else JWT_SECRET). */
export const linkKeyFrom = (secret: string): Buffer => createHmac('sha256', secret).update(LABEL).digest();

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** `v1.<claims, base64url JSON>.<HMAC-SHA256, base64url>`: URL-safe, opaque to its holder. */
export function signLink(key: Buffer, c: LinkClaims): string {
  const payload = Buffer.from(
    JSON.stringify({ t: c.tenant, k: c.key, n: c.kind, e: c.expiresAt, v: c.epoch }),
  ).toString('base64url');
  return `${VERSION}.${payload}.${mac(key, `${VERSION}.${payload}`).toString('base64url')}`;
}

export type LinkCheck =
  | { ok: true; claims: LinkClaims }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** The claims of a well-signed, unexpired token; revocation (the epoch) is the caller's to check. */
export function verifyLink(key: Buffer, token: string, nowMs = Date.now()): LinkCheck {
  const [version, payload, sig, extra] = token.split('.');
  if (version !== VERSION || !payload || !sig || extra !== undefined)
    return { ok: false, reason: 'malformed' };
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(key, `${version}.${payload}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'signature' };
  let raw: { t?: unknown; k?: unknown; n?: unknown; e?: unknown; v?: unknown };
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const { t, k, n, e, v } = raw;
  if (
    typeof t !== 'string' ||
    typeof k !== 'string' ||
    typeof n !== 'string' ||
    !KINDS.has(n) ||
    typeof e !== 'number' ||
    typeof v !== 'number'
  )
    return { ok: false, reason: 'malformed' };
  if (nowMs >= e * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { tenant: t, key: k, kind: n as LinkKind, expiresAt: e, epoch: v } };
}
