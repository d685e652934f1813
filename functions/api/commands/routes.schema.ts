import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

const CommandView = z.object({
  id: z.string(),
  kind: z.string(),
  sessionId: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

export const commandRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['session actions'],
  security: bearer,
  summary: 'The result of a session action',
  description:
    'The id is the `commandId` of the action, or the `wamid.` id the Cloud-API-compatible path answered for a reaction.',
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: {
    200: ok({ command: CommandView }),
    ...errorResponses,
  },
});
