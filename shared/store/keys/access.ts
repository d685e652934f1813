/*
 * Tenants and credentials: the items a request is found by before its tenant is known (no tenant in
 * the key), and the sort key of single-item partitions.
 */

/** The sort key of an item that is alone in its partition. */
export const META = 'META';

export const tenantKey = (tenantId: string) => ({ pk: `TENANT#${tenantId}`, sk: META });
export const portalKey = (portalId: string) => ({ pk: `PORTAL#${portalId}`, sk: META });
export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: META });
/** gsi1 of an API key item: the tenant's keys by key id (list, revoke and rotate by id). */
export const apiKeyIndex = (tenantId: string, keyId: string) => ({
  gsi1pk: `T#${tenantId}#APIKEYS`,
  gsi1sk: keyId,
});
export const apiKeysOf = (tenantId: string) => ({ index: 'gsi1' as const, pk: `T#${tenantId}#APIKEYS` });
/**
 * A failed-credentials counter: one fixed window (epoch seconds of its start) of one client address
 * or key prefix (shared/auth/throttle.ts).
 */
export const throttleKey = (kind: 'addr' | 'prefix', id: string, windowStart: number) => ({
  pk: `THROTTLE#${kind}#${id}`,
  sk: String(windowStart),
});
