import { createRoute, z } from '@hono/zod-openapi';
import { getCommand } from '#shared/commands/results';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { fromWamid } from '#shared/messages/wamid';
import { requireAuth } from '../auth/middleware.ts';

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

const route = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['session actions'],
  security: bearer,
  summary: 'The result of a session action',
  description:
    'The id is the `commandId` of the action, or the `wamid.` id the Cloud-API-compatible path answered for a reaction.',
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: {
    200: json(z.object({ success: z.literal(true), command: CommandView })),
    ...errorResponses,
  },
});

/** Mounted at `/api/commands`. */
export function commandRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const cmd = await getCommand(c.get('auth').tenant, fromWamid(id));
    if (!cmd) throw new NotFoundError(`command ${id} not found`);
    return c.json(
      {
        success: true as const,
        command: {
          id: cmd.commandId,
          kind: cmd.kind,
          sessionId: cmd.sessionId,
          status: cmd.status,
          result: cmd.result ?? null,
          error: cmd.error ?? null,
          createdAt: cmd.createdAt,
          completedAt: cmd.completedAt ?? null,
        },
      },
      200,
    );
  });
  return r;
}
