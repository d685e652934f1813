import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import type { StoredMessage } from '#shared/messages/message';
import { pollTally } from '#shared/messages/poll-votes';
import { getMessage } from '#shared/messages/repository';
import { listSessions, requireSession } from '#shared/sessions/repository';
import { messageKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { requireAuth } from '../auth/middleware.ts';
import { SessionRef } from '../commands/schemas.ts';

const Tally = z
  .object({
    success: z.literal(true),
    messageId: z.string(),
    sessionId: z.string(),
    chatId: z.string(),
    question: z.string(),
    multiple: z.boolean(),
    options: z.array(
      z.object({
        option: z.string(),
        votes: z.number().int(),
        voters: z.array(z.string()).openapi({ description: 'Digits, or `<lid>@lid`' }),
      }),
    ),
    voters: z.number().int().openapi({ description: 'How many contacts have a vote' }),
  })
  .openapi('PollTally');

const route = createRoute({
  method: 'get',
  path: '/{messageId}/poll',
  tags: ['messages'],
  security: bearer,
  summary: "A poll's tally: each option with its voters' current votes",
  request: {
    params: z.object({
      messageId: z
        .string()
        .trim()
        .min(1)
        .max(128)
        .openapi({ param: { name: 'messageId', in: 'path' }, description: 'The poll message id' }),
    }),
    query: z.object({
      sessionId: SessionRef.optional().openapi({
        description:
          "The poll's session (mobid, number or id); without it, every session of the tenant is looked in",
      }),
    }),
  },
  responses: { 200: json(Tally), ...errorResponses },
});

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
  r.openapi(route, async (c) => {
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
