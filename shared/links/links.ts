import { forgetTenantState, tenantState } from '../auth/tenant-state.ts';
import { env } from '../config/env.ts';
import { loadSecrets } from '../config/load-secrets.ts';
import { ForbiddenError, NotFoundError, ServiceError } from '../http/errors.ts';
import { tenantKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { type LinkClaims, type LinkKind, linkKeyFrom, signLink, verifyLink } from './token.ts';

/**
 * How long each kind of link works (docs/api.md, "Links"). A link is our own signature, checked by
 * `GET /links/{token}`, not an S3 presigned URL: S3 stops honouring a presigned URL when the role
 * session that signed it ends (hours for a Lambda or ECS task role), whatever its `expiresIn` said.
 */
export const LINK_TTL_SECONDS: Record<LinkKind, number> = {
  media: 7 * 86_400,
  qr: 7 * 86_400,
  export: 24 * 3600,
  tts: 3600,
};

let cachedKey: { secret: string; key: Buffer } | undefined;

/**
 * The link key, derived from LINK_SECRET (the cloud's own secret for links, loaded from
 * LINK_SECRET_ARN once per process), else JWT_SECRET (local mode).
 */
async function linkKey(): Promise<Buffer> {
  await loadSecrets();
  const secret = env().LINK_SECRET ?? env().JWT_SECRET;
  if (!secret) throw new ServiceError('SERVICE_UNAVAILABLE', 'links are not configured (LINK_SECRET)');
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: linkKeyFrom(secret) };
  return cachedKey.key;
}

/** Where links point: the API's public address. */
function linkBase(): string {
  const base = env().PUBLIC_BASE_URL;
  if (!base) throw new ServiceError('SERVICE_UNAVAILABLE', 'links are not configured (PUBLIC_BASE_URL)');
  return base.replace(/\/+$/, '');
}

/** A link to the media bucket's object `key` of `tenant`, valid for its kind's lifetime unless `ttlSeconds` says less. */
export async function linkTo(
  tenant: string,
  key: string,
  kind: LinkKind,
  opt: { ttlSeconds?: number; nowMs?: number } = {},
): Promise<string> {
  const ttl = Math.min(opt.ttlSeconds ?? LINK_TTL_SECONDS[kind], LINK_TTL_SECONDS[kind]);
  const expiresAt = Math.floor((opt.nowMs ?? Date.now()) / 1000) + ttl;
  const { linkEpoch } = await tenantState(tenant);
  const token = signLink(await linkKey(), { tenant, key, kind, expiresAt, epoch: linkEpoch });
  return `${linkBase()}/links/${token}`;
}

/**
 * The claims of a link that may be served now: well signed, unexpired, made under its tenant's
 * current link epoch, the tenant enabled. Anything else is a 403 that says only "not valid".
 */
export async function checkLink(token: string, nowMs = Date.now()): Promise<LinkClaims> {
  const checked = verifyLink(await linkKey(), token, nowMs);
  if (!checked.ok) throw new ForbiddenError(`this link is not valid (${checked.reason})`);
  const state = await tenantState(checked.claims.tenant);
  if (!state.exists || state.disabled) throw new ForbiddenError('this link is not valid (tenant)');
  if (checked.claims.epoch !== state.linkEpoch) throw new ForbiddenError('this link is not valid (revoked)');
  return checked.claims;
}

/** Revokes every link of the tenant made so far (a new link epoch); answers the new epoch. */
export async function revokeLinks(tenant: string): Promise<number> {
  const updated = await dataTable.update<{ linkEpoch: number }>(
    tenantKey(tenant),
    {},
    { add: { linkEpoch: 1 }, condition: 'attribute_exists(pk)' },
  );
  forgetTenantState(tenant);
  if (!updated) throw new NotFoundError(`tenant ${tenant} not found`);
  return updated.linkEpoch;
}
