import { errors, jwtVerify, SignJWT } from 'jose';
import { env } from '../config/env.ts';
import { UnauthorizedError } from '../http/errors.ts';
import type { TokenClaims } from './claims.ts';

const ALG = 'HS256';
const ISSUER = 'wsm';
const AUDIENCE = 'wsm-api';

let key: Uint8Array | undefined;

/** The signing key: JWT_SECRET (local launcher generates it; the cloud loads it from Secrets Manager). */
export function signingKey(): Uint8Array {
  if (!key) {
    const secret = env().JWT_SECRET;
    if (!secret) throw new Error('JWT_SECRET is not configured');
    key = new TextEncoder().encode(secret);
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
    .sign(signingKey());
  return { token, expiresIn };
}

/** Verifies signature (HS256 only: `none` and RS/ES tokens are refused), issuer, audience and expiry. */
export async function verifyToken(token: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: [ALG],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'sub', 'tenant'],
    });
    const scope = payload.scope === 'admin' ? 'admin' : 'tenant';
    if (typeof payload.tenant !== 'string' || !payload.sub)
      throw new UnauthorizedError('token has no tenant');
    return { tenant: payload.tenant, sub: payload.sub, scope };
  } catch (err) {
    if (err instanceof UnauthorizedError) throw err;
    if (err instanceof errors.JWTExpired) throw new UnauthorizedError('token expired');
    throw new UnauthorizedError('invalid token');
  }
}
