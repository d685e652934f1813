import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { env } from '../config/env.ts';
import { UnauthorizedError } from '../http/errors.ts';
import { must } from '../must.ts';
import type { TokenClaims } from './claims.ts';

const ALG = 'HS256';
const ISSUER = 'wsm';
const AUDIENCE = 'wsm-api';

let key: Promise<webcrypto.CryptoKey> | undefined;

/**
 * The signing key: JWT_SECRET (local launcher generates it; the cloud loads it from Secrets Manager),
 * imported once. Given raw bytes, jose would import them again on every sign and verify.
 */
export function signingKey(): Promise<webcrypto.CryptoKey> {
  if (!key) {
    const secret = env().JWT_SECRET;
    if (!secret) throw new Error('JWT_SECRET is not configured');
    key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }
  return key;
}

export async function issueToken(claims: TokenClaims): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = env().JWT_TTL_SECONDS;
  const token = await new SignJWT({ tenant: claims.tenant, scope: claims.scope })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(await signingKey());
  return { token, expiresIn };
}

/**
 * Tokens already verified here, with their claims and expiry. A client sends the same token with
 * every request for its lifetime; checking its signature once (jose's HMAC goes through WebCrypto's
 * thread pool) is enough: a signature never changes. Whether what the token was minted from is still
 * current (revocation, a disabled tenant, a changed admin key) is checked on every use, by
 * shared/auth/credentials.ts. Only the exact token string hits, and its expiry is still checked.
 */
const verified = new LRUCache<string, { claims: TokenClaims; exp: number }>({ max: 10_000 });

/** Verifies signature (HS256 only: `none` and RS/ES tokens are refused), issuer, audience and expiry. */
export async function verifyToken(token: string): Promise<TokenClaims> {
  const known = verified.get(token);
  if (known) {
    // As jose judges it: expired from the second `exp` names.
    if (known.exp > Math.floor(Date.now() / 1000)) return known.claims;
    verified.delete(token);
    throw new UnauthorizedError('token expired');
  }
  const { claims, exp } = await verifySignature(token);
  verified.set(token, { claims, exp });
  return claims;
}

async function verifySignature(token: string): Promise<{ claims: TokenClaims; exp: number }> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(), {
      algorithms: [ALG],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'tenant'],
    });
    const scope = payload.scope === 'admin' ? 'admin' : 'tenant';
    if (typeof payload.tenant !== 'string' || !payload.sub)
      throw new UnauthorizedError('token has no tenant');
    return {
      claims: { tenant: payload.tenant, sub: payload.sub, scope },
      exp: must(payload.exp, 'exp, a required claim'),
    };
  } catch (err) {
    if (err instanceof UnauthorizedError) throw err;
    if (err instanceof errors.JWTExpired) throw new UnauthorizedError('token expired');
    throw new UnauthorizedError('invalid token');
  }
}
