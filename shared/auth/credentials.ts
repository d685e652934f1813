import { createHash, timingSafeEqual } from 'node:crypto';
import { env } from '../config/env.ts';
import { TenantDisabledError, UnauthorizedError } from '../http/errors.ts';
import { must } from '../must.ts';
import { findApiKey } from './api-keys.ts';
import type { TokenClaims } from './claims.ts';
import { tenantState } from './tenant-state.ts';
import { ADMIN_TENANT_ID } from './tenants.ts';
import { type Attempt, guardAttempt, recordFailure } from './throttle.ts';
import { verifyToken } from './tokens.ts';

/**
 * Every credential a request presents goes through here: a token is checked against what it was
 * minted from (the admin key, or a tenant's API key and the tenant's state), an API key against the
 * failed-attempt throttle, its revocation and its tenant's state.
 */

/**
 * A fingerprint of the admin key, carried in the `sub` of the admin tokens it mints (`admin:<fp>`):
 * once the admin key is changed, a process holding the new key refuses the old key's tokens. 64 bits
 * of a domain-separated SHA-256 of a random key of 48+ characters: names the key, reveals nothing of it.
 */
export function adminSubject(adminKey = env().ADMIN_API_KEY): string | undefined {
  if (!adminKey) return undefined;
  return `admin:${createHash('sha256').update(`wsm admin key\0${adminKey}`).digest('hex').slice(0, 16)}`;
}

/** Refuses claims whose source is gone: a changed admin key, a revoked API key, a disabled tenant. */
export async function assertActive(claims: TokenClaims): Promise<void> {
  if (claims.scope === 'admin') {
    const current = adminSubject();
    if (!current || claims.sub !== current)
      throw new UnauthorizedError('token was issued for an admin key that is no longer current');
    return;
  }
  const state = await tenantState(claims.tenant);
  if (!state.exists) throw new UnauthorizedError('token of an unknown tenant');
  if (state.disabled) throw new TenantDisabledError(claims.tenant);
  if (state.revokedKeys[claims.sub] !== undefined)
    throw new UnauthorizedError('the API key this token was issued for has been revoked');
}

/** A Bearer token: signature, expiry, then its source still current. */
export async function authenticateToken(token: string): Promise<TokenClaims> {
  const claims = await verifyToken(token);
  await assertActive(claims);
  return claims;
}

function isAdminKey(candidate: string): boolean {
  const admin = env().ADMIN_API_KEY;
  if (!admin) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(admin);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * An API key presented as a credential (the token exchange, or directly where a route takes one):
 * throttled per address and key prefix first (shared/auth/throttle.ts), then refused when unknown or
 * revoked (both count as failed attempts) or when its tenant is disabled. The admin key is accepted
 * only where `admin` says so (the token exchange).
 */
export async function authenticateApiKey(
  key: string,
  address: string | undefined,
  opts: { admin?: boolean } = {},
): Promise<TokenClaims> {
  const attempt: Attempt = { key, address };
  await guardAttempt(attempt);
  if (opts.admin && isAdminKey(key))
    return {
      tenant: ADMIN_TENANT_ID,
      sub: must(adminSubject(), 'the subject of the configured admin key'),
      scope: 'admin',
    };
  const record = key.startsWith('wsm_') ? await findApiKey(key) : undefined;
  if (!record || record.revokedAt) {
    await recordFailure(attempt);
    throw new UnauthorizedError(record ? 'API key revoked' : 'unknown API key');
  }
  const claims: TokenClaims = { tenant: record.tenantId, sub: record.keyId, scope: record.scope };
  await assertActive(claims);
  return claims;
}
