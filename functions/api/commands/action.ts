import type { z } from '@hono/zod-openapi';
import type { Router } from '#shared/http/context';
import { requireReadySession } from '../sessions/service.ts';
import { acceptCommand, type CommandBody } from './accept.ts';
import type { actionRoute } from './schemas.ts';

/**
 * The answer every session action gives (pin, presence, status, groups, reaction, read, edit,
 * delete…): 202 with the command whose result appears at `/api/commands/{id}` (the `Accepted` schema).
 */
export const accepted = (commandId: string) => ({
  success: true as const,
  commandId,
  status: 'pending' as const,
});

/** Accepts `body` for the tenant's READY session `sessionRef` (any of its names): the action's answer. */
export async function acceptAction(tenantId: string, sessionRef: string, body: CommandBody) {
  const { commandId } = await acceptCommand(await requireReadySession(tenantId, sessionRef), body);
  return accepted(commandId);
}

/**
 * Serves a session action on `r`: its valid body names the session (`sessionId`, any of its names)
 * and `command` turns it into the command accepted for that session.
 */
export function serveAction<T extends z.ZodType<{ sessionId: string }>>(
  r: Router,
  route: ReturnType<typeof actionRoute<T>>,
  command: (body: z.output<T>) => CommandBody,
) {
  r.openapi(route, async (c) => {
    // The body the route's schema validated (its type is known to the caller, not to this generic).
    const b = (c.req as unknown as { valid(target: 'json'): z.output<T> }).valid('json');
    return c.json(await acceptAction(c.get('auth').tenant, b.sessionId, command(b)), 202);
  });
}
