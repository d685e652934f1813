import { router } from '#shared/http/context';
import { ConflictError, NotFoundError } from '#shared/http/errors';
import type { StoredMessage } from '#shared/messages/message';
import { getMessage } from '#shared/messages/repository';
import { requireAuth } from '../auth/middleware.ts';
import { acceptCommand } from '../commands/accept.ts';
import { accepted } from '../commands/action.ts';
import { requireReadySession } from '../sessions/service.ts';
import { deleteRoute, editRoute } from './change-routes.schema.ts';

/** The network accepts an edit for 15 minutes after the message was sent. */
export const EDIT_WINDOW_MS = 15 * 60_000;

/** Kinds whose words can be edited: a text's text, a media message's caption. */
const EDITABLE = new Set(['text', 'image', 'video', 'document', 'pdf']);

/** The stored message of this session; another session's or tenant's is not found. */
async function messageOf(tenantId: string, sessionId: string, id: string): Promise<StoredMessage> {
  const m = await getMessage(tenantId, sessionId, id);
  if (!m) throw new NotFoundError(`messageId: ${id} is not a message of this session`);
  if (m.deletedAt) throw new ConflictError(`messageId: ${id} was deleted`);
  return m;
}

/** What must hold before the network is asked to change a message the session sent. */
function requireSentByUs(m: StoredMessage, verb: string): void {
  if (m.direction !== 'outbound')
    throw new ConflictError(`messageId: only a message the session sent can be ${verb}`);
  if (m.status === 'queued') throw new ConflictError(`messageId: ${m.messageId} has not been sent yet`);
  if (m.status === 'failed') throw new ConflictError(`messageId: ${m.messageId} was never sent (failed)`);
}

/** `POST /edit` and `POST /delete`, mounted inside `/api/messages`: session actions on one message. */
export function changeRoutes() {
  const r = router();
  r.use('/edit', requireAuth);
  r.use('/delete', requireAuth);
  r.openapi(editRoute, async (c) => {
    const b = c.req.valid('json');
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const m = await messageOf(session.tenantId, session.sessionId, b.messageId);
    requireSentByUs(m, 'edited');
    if (!EDITABLE.has(m.kind)) throw new ConflictError(`messageId: a ${m.kind} message has no text to edit`);
    if (Date.now() - m.timestampMs > EDIT_WINDOW_MS) {
      throw new ConflictError('messageId: the network accepts edits for 15 minutes after sending');
    }
    const { commandId } = await acceptCommand(session, {
      kind: 'edit',
      chatId: m.chatId,
      messageId: m.messageId,
      text: b.text,
    });
    return c.json(accepted(commandId), 202);
  });
  r.openapi(deleteRoute, async (c) => {
    const b = c.req.valid('json');
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const m = await messageOf(session.tenantId, session.sessionId, b.messageId);
    if (b.forEveryone) requireSentByUs(m, 'deleted for everyone');
    const { commandId } = await acceptCommand(session, {
      kind: 'delete',
      chatId: m.chatId,
      messageId: m.messageId,
      fromMe: m.direction === 'outbound',
      forEveryone: b.forEveryone,
    });
    return c.json(accepted(commandId), 202);
  });
  return r;
}
