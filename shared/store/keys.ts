/**
 * Every DynamoDB key the code builds, in one place (docs/data-model.md is the table of them). Stored
 * formats are fixed: existing items must stay readable, so a change here is a data migration.
 *
 * Tenant-owned items start with `T#<tenantId>`; a `…Of` function answers a partition and sort-key
 * prefix to Query (`{ ...contactsOf(t, s), ascending: true }`).
 *
 * This file is the one door to them; each family of keys lives in `keys/` (order keys, access, the
 * tenant's items, a session's partition, the index partitions, usage, the service's own items).
 */

export * from './keys/access.ts';
export * from './keys/indexes.ts';
export * from './keys/order.ts';
export * from './keys/service.ts';
export * from './keys/session.ts';
export * from './keys/tenant.ts';
export * from './keys/usage.ts';
