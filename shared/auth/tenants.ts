import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '../http/errors.ts';
import { toAttr } from '../store/db.ts';
import { portalKey, tenantKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { forgetTenantState, tenantState } from './tenant-state.ts';

export interface Tenant {
  id: string;
  name: string;
  portalId: string;
  createdAt: string;
  /** Disabled: its tokens and API keys are refused, its portal id answers 404 (docs/api.md, "Revocation"). */
  disabled: boolean;
}

export type Scope = 'admin' | 'tenant';

export const ADMIN_TENANT_ID = 'admin';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const newPortalId = () => `prt_${hex(12)}`;

export async function createTenant(name: string, id = `tnt_${hex(8)}`): Promise<Tenant> {
  const tenant: Tenant = {
    id,
    name,
    portalId: newPortalId(),
    createdAt: new Date().toISOString(),
    disabled: false,
  };
  const created = await dataTable.transact([
    // `revokedKeys`: key id → epoch seconds of its revocation (shared/auth/api-keys.ts).
    dataTable.putIfAbsentOp({ ...tenantKey(id), type: 'tenant', ...tenant, revokedKeys: {} }),
    dataTable.putIfAbsentOp({ ...portalKey(tenant.portalId), type: 'portal', tenantId: id }),
  ]);
  if (!created) {
    const existing = await getTenant(id);
    if (existing) return existing;
    throw new Error(`could not create tenant ${id}`);
  }
  return tenant;
}

export async function getTenant(id: string, consistent = false): Promise<Tenant | undefined> {
  const item = await dataTable.get<Tenant>(tenantKey(id), consistent);
  return item
    ? {
        id: item.id,
        name: item.name,
        portalId: item.portalId,
        createdAt: item.createdAt,
        disabled: item.disabled === true,
      }
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

/** The tenant a portal id belongs to; undefined for an unknown (or rotated) portal id or a disabled tenant. */
export async function tenantOfPortal(portalId: string): Promise<string | undefined> {
  const item = await dataTable.get<{ tenantId: string }>(portalKey(portalId));
  if (!item) return undefined;
  return (await tenantState(item.tenantId)).disabled ? undefined : item.tenantId;
}

/**
 * Disables or re-enables a tenant. Takes effect at once in this process (its cached state is
 * dropped) and within TENANT_STATE_TTL_MS in every other one.
 */
export async function setTenantDisabled(id: string, disabled: boolean): Promise<Tenant> {
  if (id === ADMIN_TENANT_ID) throw new ConflictError('the admin tenant cannot be disabled');
  const updated = await dataTable.update(
    tenantKey(id),
    { disabled, disabledAt: disabled ? new Date().toISOString() : undefined },
    { condition: 'attribute_exists(pk)' },
  );
  forgetTenantState(id);
  if (!updated) throw new NotFoundError(`tenant ${id} not found`);
  return requireTenant(id);
}

/**
 * Gives the tenant a new portal id; the old one answers 404 from the next request on (every portal
 * request reads the portal item). Streams already open on the old id are not cut.
 */
export async function rotatePortalId(id: string): Promise<Tenant> {
  const tenant = await getTenant(id, true);
  if (!tenant) throw new NotFoundError(`tenant ${id} not found`);
  const portalId = newPortalId();
  const table = dataTable.name();
  const swapped = await dataTable.transact([
    dataTable.putIfAbsentOp({ ...portalKey(portalId), type: 'portal', tenantId: id }),
    {
      Delete: {
        TableName: table,
        Key: toAttr(portalKey(tenant.portalId)),
        ConditionExpression: 'tenantId = :t',
        ExpressionAttributeValues: toAttr({ ':t': id }),
      },
    },
    {
      Update: {
        TableName: table,
        Key: toAttr(tenantKey(id)),
        UpdateExpression: 'SET portalId = :new',
        ConditionExpression: 'portalId = :old',
        ExpressionAttributeValues: toAttr({ ':new': portalId, ':old': tenant.portalId }),
      },
    },
  ]);
  if (!swapped) throw new ConflictError('the portal id changed meanwhile; try again');
  return { ...tenant, portalId };
}
