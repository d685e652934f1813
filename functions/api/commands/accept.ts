import { recordCommand } from '#shared/commands/results';
import type { Command } from '#shared/commands/types';
import type { Session } from '#shared/sessions/session';
import { dispatchCommand, newCommandId } from './dispatch.ts';

/** A session action as the caller describes it; the accept path adds the ids and the time. */
export type CommandBody = Command extends infer C
  ? C extends Command
    ? Omit<C, 'commandId' | 'tenantId' | 'sessionId' | 'issuedAt'>
    : never
  : never;

/**
 * The one way a session action is accepted, for a READY session (`requireReadySession`): the command is recorded as
 * pending (so its result can be read at `/api/commands/{id}` and sent as `command.result`), then it
 * goes to the host holding the session's shard.
 */
export async function acceptCommand(session: Session, body: CommandBody): Promise<{ commandId: string }> {
  const { tenantId } = session;
  const commandId = newCommandId();
  await recordCommand({ commandId, tenantId, sessionId: session.sessionId, kind: body.kind });
  await dispatchCommand({
    ...body,
    commandId,
    tenantId,
    sessionId: session.sessionId,
    issuedAt: Date.now(),
  } as Command);
  return { commandId };
}
