import { Remembered } from '../remembered.ts';
import { tenantKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * How long a process trusts what it read of a tenant's credential state. A tenant disabled, or a key
 * revoked, in another process is refused here at most this long after the change; in the process
 * that made the change, at once.
 */
export const TENANT_STATE_TTL_MS = 10_000;

export interface TenantState {
  exists: boolean;
  disabled: boolean;
  /** Key id → epoch seconds of its revocation (tokens it minted are refused). */
  revokedKeys: Record<string, number>;
  /** Links made under an earlier epoch are refused (shared/links/links.ts). */
  linkEpoch: number;
}

const cache = new Remembered<TenantState>({ ttlMs: TENANT_STATE_TTL_MS });

/** What the tenant item says about its credentials: one GetItem per tenant per TTL per process. */
export function tenantState(tenantId: string): Promise<TenantState> {
  return cache.get(tenantId, () => read(tenantId));
}

/** After a change made here: the next check reads the item again. */
export function forgetTenantState(tenantId: string): void {
  cache.forget(tenantId);
}

async function read(tenantId: string): Promise<TenantState> {
  const item = await dataTable.get<{
    disabled?: boolean;
    revokedKeys?: Record<string, number>;
    linkEpoch?: number;
  }>(tenantKey(tenantId), true);
  return {
    exists: !!item,
    disabled: item?.disabled === true,
    revokedKeys: item?.revokedKeys ?? {},
    linkEpoch: item?.linkEpoch ?? 0,
  };
}
