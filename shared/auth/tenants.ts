import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError } from '../http/errors.ts';
import { apiKeyKey, portalKey, tenantKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

export interface Tenant {
  id: string;
  name: string;
  portalId: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  label?: string;
  scope: Scope;
  createdAt: string;
}

export type Scope = 'admin' | 'tenant';

export const ADMIN_TENANT_ID = 'admin';

/** API keys are 256-bit random strings, so a plain SHA-256 is a sound way to store them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export async function createTenant(name: string, id = `tnt_${hex(8)}`): Promise<Tenant> {
  const tenant: Tenant = { id, name, portalId: `prt_${hex(12)}`, createdAt: new Date().toISOString() };
  const created = await dataTable.transact([
    dataTable.putIfAbsentOp({ ...tenantKey(id), type: 'tenant', ...tenant }),
    dataTable.putIfAbsentOp({ ...portalKey(tenant.portalId), type: 'portal', tenantId: id }),
  ]);
  if (!created) {
    const existing = await getTenant(id);
    if (existing) return existing;
    throw new Error(`could not create tenant ${id}`);
  }
  return tenant;
}

export async function getTenant(id: string): Promise<Tenant | undefined> {
  const item = await dataTable.get<Tenant>(tenantKey(id));
  return item
    ? { id: item.id, name: item.name, portalId: item.portalId, createdAt: item.createdAt }
    : undefined;
}

export async function requireTenant(id: string): Promise<Tenant> {
  const t = await getTenant(id);
  if (!t) throw new NotFoundError(`tenant ${id} not found`);
  return t;
}

/** The admin tenant exists from the first admin token on. */
export function ensureAdminTenant(): Promise<Tenant> {
  return createTenant('admin', ADMIN_TENANT_ID);
}

export async function tenantOfPortal(portalId: string): Promise<string | undefined> {
  const item = await dataTable.get<{ tenantId: string }>(portalKey(portalId));
  return item?.tenantId;
}

/** Creates a key for the tenant; the plain key is returned once and never stored. */
export async function createApiKey(
  tenantId: string,
  label?: string,
): Promise<{ apiKey: string; record: ApiKeyRecord }> {
  const apiKey = `wsm_${hex(32)}`;
  const record: ApiKeyRecord = {
    keyId: `key_${hex(8)}`,
    tenantId,
    label,
    scope: 'tenant',
    createdAt: new Date().toISOString(),
  };
  await dataTable.put({ ...apiKeyKey(hashApiKey(apiKey)), type: 'apikey', ...record }, { ifAbsent: true });
  return { apiKey, record };
}

export async function findApiKey(apiKey: string): Promise<ApiKeyRecord | undefined> {
  return dataTable.get<ApiKeyRecord>(apiKeyKey(hashApiKey(apiKey)));
}
