import { createRoute, z } from '@hono/zod-openapi';
import { PROFILE_NAMES } from '#shared/chatbot/session-keys';
import { errorResponses, ok } from '#shared/http/schemas';

/**
 * The definitions of the routes of templates-routes.ts: their schemas, which also make /openapi.json.
 */

export const profileTemplatesRoute = createRoute({
  method: 'get',
  path: '/templates/{profile}',
  tags: ['chatbot'],
  summary: 'A complete example brain, persona prompt and intents file for a tenant profile (no auth)',
  security: [],
  request: {
    params: z.object({
      profile: z.enum(PROFILE_NAMES).openapi({ param: { name: 'profile', in: 'path' } }),
    }),
  },
  responses: {
    200: ok({
      profile: z.enum(PROFILE_NAMES),
      brain: z.record(z.string(), z.unknown()),
      prompt: z.string(),
      intents: z.record(z.string(), z.unknown()),
    }),
    ...errorResponses,
  },
});
