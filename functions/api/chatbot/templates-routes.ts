import { createRoute, z } from '@hono/zod-openapi';
import { PROFILE_NAMES } from '#shared/chatbot/session-keys';
import { router } from '#shared/http/context';
import { errorResponses, json } from '#shared/http/schemas';
import { PROFILE_TEMPLATES } from './profiles/index.ts';

/** `/templates/{profile}`: a ready-made brain, prompt and intents file; no credentials needed. */
export function templatesRoutes() {
  const r = router();
  r.openapi(
    createRoute({
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
        200: json(
          z.object({
            success: z.literal(true),
            profile: z.enum(PROFILE_NAMES),
            brain: z.record(z.string(), z.unknown()),
            prompt: z.string(),
            intents: z.record(z.string(), z.unknown()),
          }),
        ),
        ...errorResponses,
      },
    }),
    (c) => {
      const { profile } = c.req.valid('param');
      return c.json({ success: true as const, profile, ...PROFILE_TEMPLATES[profile] }, 200);
    },
  );
  return r;
}
