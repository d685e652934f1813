import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

export const tenantCreateRoute = createRoute({
  method: 'post',
  path: '/tenants',
  summary: 'Create a tenant and its first API key (admin only; the key is shown once)',
  tags: ['admin'],
  security: bearer,
  request: {
    body: {
      content: { 'application/json': { schema: z.object({ name: z.string().trim().min(1).max(100) }) } },
    },
  },
  responses: {
    201: ok({
      tenant: z.object({ id: z.string(), name: z.string(), portal_id: z.string() }),
      apiKey: z.string(),
    }),
    ...errorResponses,
  },
});

export const keyCreateRoute = createRoute({
  method: 'post',
  path: '/tenants/{id}/keys',
  summary: 'Create another API key for a tenant (admin only)',
  tags: ['admin'],
  security: bearer,
  request: {
    params: z.object({ id: z.string().min(1).max(64) }),
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ label: z.string().max(100).optional() }) } },
    },
  },
  responses: {
    201: ok({ apiKey: z.string(), keyId: z.string() }),
    ...errorResponses,
  },
});
