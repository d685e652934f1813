import { getCommand } from '#shared/commands/results';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { fromWamid } from '#shared/messages/wamid';
import { requireAuth } from '../auth/middleware.ts';
import { commandRoute } from './routes.schema.ts';

/** Mounted at `/api/commands`. */
export function commandRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(commandRoute, async (c) => {
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
