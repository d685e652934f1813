import { z } from '@hono/zod-openapi';
import { Intents } from '#shared/chatbot/intents-schema';
import { json, ok, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';

/**
 * The definitions of the routes of intents-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot');

export const TenantField = z.string().trim().max(50).optional().openapi({
  description:
    '`clinic`, `appliances`, `ecommerce` or `salon` sets the tenant profile; other values are accepted and ignored',
});

export const IntentsBody = z.object({
  tenant: TenantField,
  intents: Intents.openapi({ description: 'the intents file (docs/chatbot.md)' }),
});

const IntentsSaved = z.object({
  success: z.literal(true),
  version: z.string().openapi({ description: 'content hash of the stored intents' }),
  count: z.number().int(),
  profile: z.string().optional(),
  updatedAt: z.string(),
});

export const intentsRoute = route({
  method: 'get',
  path: '/intents',
  middleware: [requireAuth] as const,
  summary: "The tenant's intents file, with its version",
  responses: {
    200: ok({ version: z.string(), updatedAt: z.string(), intents: z.record(z.string(), z.unknown()) }),
  },
});

/** Replacing the intents file, at this path and at the older one (legacy-routes.schema.ts). */
export const saveIntentsRequest = {
  method: 'post' as const,
  path: '/intents',
  request: { body: { content: { 'application/json': { schema: IntentsBody } } } },
  responses: { 200: json(IntentsSaved) },
};

export const saveIntentsRoute = route({
  summary: "Replace the tenant's intents file",
  ...saveIntentsRequest,
  middleware: [requireAuth] as const,
});
