import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { ApiKeySchema, KeyIdParam, NewKeySchema } from '../keys/routes.schema.ts';

/**
 * The definitions of the tenant and key administration routes (credential-routes.ts), which also
 * make /openapi.json.
 */

export const TenantId = z.string().min(1).max(64);

export const TenantSchema = z
  .object({ id: z.string(), name: z.string(), portal_id: z.string(), disabled: z.boolean() })
  .openapi('Tenant');
export const TenantBody = z.object({ success: z.literal(true), tenant: TenantSchema });

export const getTenantRoute = createRoute({
  method: 'get',
  path: '/tenants/{id}',
  summary: 'A tenant (admin only)',
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: { 200: json(TenantBody), ...errorResponses },
});

export const listKeysRoute = createRoute({
  method: 'get',
  path: '/tenants/{id}/keys',
  summary: "A tenant's API keys (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: {
    200: json(z.object({ success: z.literal(true), keys: z.array(ApiKeySchema) })),
    ...errorResponses,
  },
});

export const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/tenants/{id}/keys/{keyId}',
  summary: "Revoke a tenant's API key and the tokens it minted (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId, keyId: KeyIdParam }) },
  responses: { 200: json(z.object({ success: z.literal(true), key: ApiKeySchema })), ...errorResponses },
});

export const rotateKeyRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/keys/{keyId}/rotate',
  summary: "Replace a tenant's API key by a new one; the old key is revoked (admin only)",
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId, keyId: KeyIdParam }) },
  responses: { 201: json(NewKeySchema), ...errorResponses },
});

export const disableRoute = (action: 'disable' | 'enable') =>
  createRoute({
    method: 'post',
    path: `/tenants/{id}/${action}`,
    summary:
      action === 'disable'
        ? 'Disable a tenant: its tokens and API keys are refused (403 TENANT_DISABLED), its portal id answers 404 (admin only)'
        : 'Re-enable a disabled tenant; its keys and unexpired tokens work again (admin only)',
    tags: ['admin'],
    security: bearer,
    request: { params: z.object({ id: TenantId }) },
    responses: { 200: json(TenantBody), ...errorResponses },
  });

export const rotatePortalRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/portal/rotate',
  summary: 'Give a tenant a new portal id; the old one answers 404 from now on (admin only)',
  tags: ['admin'],
  security: bearer,
  request: { params: z.object({ id: TenantId }) },
  responses: { 200: json(TenantBody), ...errorResponses },
});
