import { createHash, randomBytes } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { env } from '../config/env.ts';
import { ConflictError, NotFoundError } from '../http/errors.ts';
import { toAttr } from '../store/db.ts';
import { apiKeyIndex, apiKeyKey, apiKeysOf, tenantKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { forgetTenantState } from './tenant-state.ts';
import type { Scope } from './tenants.ts';
import { KEY_PREFIX_LENGTH } from './throttle.ts';

/**
 * A tenant's API keys: created, listed, revoked and rotated here. The item is keyed by the key's
 * hash (how `/api/auth/token` finds it) and indexed by tenant and key id (gsi1). A revoked key keeps
 * its item, marked, for 30 days (listings show it), and its id goes into the tenant item's
 * `revokedKeys`, which every token check reads (shared/auth/credentials.ts).
 */
export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  label?: string;
  scope: Scope;
  createdAt: string;
  /** The key's first characters (`wsm_` + 8), to tell keys apart; absent on keys made before listings. */
  prefix?: string;
  revokedAt?: string;
}

/** Key ids are `key_` + 16 hex digits; the id pattern routes validate against. */
export const KEY_ID = /^key_[0-9a-f]{16}$/;

/** A revoked key's item stays listed this long, then DynamoDB's TTL removes it. */
const REVOKED_KEPT_SECONDS = 30 * 86_400;

/** API keys are 256-bit random strings, so a plain SHA-256 is a sound way to store them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function newKey(tenantId: string, label: string | undefined) {
  const apiKey = `wsm_${hex(32)}`;
  const record: ApiKeyRecord = {
    keyId: `key_${hex(8)}`,
    tenantId,
    label,
    scope: 'tenant',
    createdAt: new Date().toISOString(),
    prefix: apiKey.slice(0, KEY_PREFIX_LENGTH),
  };
  const item = {
    ...apiKeyKey(hashApiKey(apiKey)),
    ...apiKeyIndex(tenantId, record.keyId),
    type: 'apikey',
    ...record,
  };
  return { apiKey, record, item };
}

/** Creates a key for the tenant; the plain key is returned once and never stored. */
export async function createApiKey(
  tenantId: string,
  label?: string,
): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  const { apiKey, record, item } = newKey(tenantId, label);
  await dataTable.put(item, { ifAbsent: true });
  return { apiKey, record };
}

/**
 * The key's record, revoked or not (callers refuse a revoked one). A key made before keys were
 * listed gets its index entry and prefix on its first use here: only here is the plain key at hand.
 */
export async function findApiKey(apiKey: string): Promise<ApiKeyRecord | undefined> {
  const key = apiKeyKey(hashApiKey(apiKey));
  const item = await dataTable.get<ApiKeyRecord>(key);
  if (!item) return undefined;
  if (!item.prefix) {
    item.prefix = apiKey.slice(0, KEY_PREFIX_LENGTH);
    await dataTable.update(
      key,
      { ...apiKeyIndex(item.tenantId, item.keyId), prefix: item.prefix },
      { condition: 'attribute_exists(pk)' },
    );
  }
  return recordOf(item);
}

function recordOf(item: ApiKeyRecord): ApiKeyRecord {
  const { keyId, tenantId, label, scope, createdAt, prefix, revokedAt } = item;
  return { keyId, tenantId, label, scope, createdAt, prefix, revokedAt };
}

/** The tenant's keys, oldest first, revoked ones included (until their item expires). */
export async function listApiKeys(tenantId: string): Promise<ApiKeyRecord[]> {
  const items = await dataTable.query<ApiKeyRecord>({ ...apiKeysOf(tenantId), ascending: true });
  return items.map(recordOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The key's item (with its hash key), read through the tenant's index; 404 when it is not the tenant's. */
async function keyItem(tenantId: string, keyId: string) {
  if (!KEY_ID.test(keyId)) throw new NotFoundError(`API key ${keyId} not found`);
  const [item] = await dataTable.query<ApiKeyRecord & { pk: string; sk: string }>({
    ...apiKeysOf(tenantId),
    skBeginsWith: keyId,
    limit: 1,
  });
  if (!item || item.keyId !== keyId || item.tenantId !== tenantId)
    throw new NotFoundError(`API key ${keyId} not found`);
  return item;
}

/**
 * The writes that revoke a key, for one transaction: the key item marked (so it no longer mints),
 * and its id in the tenant's `revokedKeys` (so its tokens are refused). Entries older than the
 * longest token lifetime are dropped on the way: no token they could refuse is still valid.
 */
async function revocationOps(tenantId: string, item: { pk: string; sk: string }, keyId: string) {
  const now = Math.floor(Date.now() / 1000);
  const table = dataTable.name();
  // A tenant made before revocation existed has no map yet; a nested SET needs one.
  await dataTable.transact([
    {
      Update: {
        TableName: table,
        Key: toAttr(tenantKey(tenantId)),
        UpdateExpression: 'SET revokedKeys = if_not_exists(revokedKeys, :empty)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: toAttr({ ':empty': {} }),
      },
    },
  ]);
  const tenant = await dataTable.get<{ revokedKeys?: Record<string, number> }>(tenantKey(tenantId), true);
  const horizon = now - Math.max(env().JWT_TTL_SECONDS, 86_400) - 60;
  const stale = Object.entries(tenant?.revokedKeys ?? {})
    .filter(([id, at]) => at < horizon && id !== keyId)
    .map(([id]) => id);
  const names: Record<string, string> = { '#k': keyId };
  for (const [i, id] of stale.entries()) names[`#s${i}`] = id;
  const remove = stale.length ? ` REMOVE ${stale.map((_, i) => `revokedKeys.#s${i}`).join(', ')}` : '';
  const ops: TransactWriteItem[] = [
    {
      Update: {
        TableName: table,
        Key: toAttr({ pk: item.pk, sk: item.sk }),
        UpdateExpression: 'SET revokedAt = :at, expiresAt = :exp',
        ConditionExpression: 'attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: toAttr({
          ':at': new Date(now * 1000).toISOString(),
          ':exp': now + REVOKED_KEPT_SECONDS,
        }),
      },
    },
    {
      Update: {
        TableName: table,
        Key: toAttr(tenantKey(tenantId)),
        UpdateExpression: `SET revokedKeys.#k = :now${remove}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: toAttr({ ':now': now }),
      },
    },
  ];
  return ops;
}

/**
 * Revokes a key: it no longer mints tokens, and the tokens it minted are refused (at once in this
 * process, within TENANT_STATE_TTL_MS elsewhere). Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(tenantId: string, keyId: string): Promise<ApiKeyRecord> {
  const item = await keyItem(tenantId, keyId);
  if (item.revokedAt) return recordOf(item);
  const done = await dataTable.transact(await revocationOps(tenantId, item, keyId));
  forgetTenantState(tenantId);
  // Read from the table, not the index: the index may not show the change yet.
  const after = await dataTable.get<ApiKeyRecord>({ pk: item.pk, sk: item.sk }, true);
  if (!done && !after?.revokedAt) throw new ConflictError(`API key ${keyId} changed meanwhile; try again`);
  return recordOf(after ?? item);
}

/**
 * Replaces a key with a new one of the same label, in one transaction: the old key is revoked as by
 * `revokeApiKey`, the new one (shown once) works at once.
 */
export async function rotateApiKey(
  tenantId: string,
  keyId: string,
): Promise<{ apiKey: string; record: ApiKeyRecord; replaced: string }> {
  const item = await keyItem(tenantId, keyId);
  if (item.revokedAt) throw new ConflictError(`API key ${keyId} is revoked; create a new key instead`);
  const fresh = newKey(tenantId, item.label);
  const done = await dataTable.transact([
    dataTable.putIfAbsentOp(fresh.item),
    ...(await revocationOps(tenantId, item, keyId)),
  ]);
  forgetTenantState(tenantId);
  if (!done) throw new ConflictError(`API key ${keyId} was revoked meanwhile`);
  return { apiKey: fresh.apiKey, record: fresh.record, replaced: keyId };
}
