import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import type { StoredMessage } from '#shared/messages/message';
import { pollTally } from '#shared/messages/poll-votes';
import { getMessage } from '#shared/messages/repository';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { messageKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { requireAuth } from '../auth/middleware.ts';
import { pollRoute } from './poll-routes.schema.ts';

/** The message in one of the tenant's sessions: one BatchGet per 100 sessions. */
async function findInTenant(tenantId: string, messageId: string): Promise<StoredMessage | undefined> {
  const sessions = await listSessions(tenantId);
  for (let i = 0; i < sessions.length; i += 100) {
    const keys = sessions.slice(i, i + 100).map((s) => messageKey(tenantId, s.sessionId, messageId));
    const hit = (await dataTable.getMany<StoredMessage>(keys)).find((m) => m !== undefined);
    if (hit) return hit;
  }
  return undefined;
}

/** `GET /{messageId}/poll`, mounted inside `/api/messages`. */
export function pollRoutes() {
  const r = router();
  r.use('/:messageId/poll', requireAuth);
  r.openapi(pollRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { messageId } = c.req.valid('param');
    const { sessionId } = c.req.valid('query');
    const m = sessionId
      ? await getMessage(tenant, (await requireSession(tenant, sessionId)).sessionId, messageId)
      : await findInTenant(tenant, messageId);
    // Another tenant's message is not found either: every key above carries the caller's tenant.
    if (!m?.poll) throw new NotFoundError(`messageId: ${messageId} is not a poll of this tenant`);
    const tally = await pollTally(tenant, m.sessionId, m.poll, m.messageId);
    return c.json(
      { success: true as const, messageId: m.messageId, sessionId: m.sessionId, chatId: m.chatId, ...tally },
      200,
    );
  });
  return r;
}
