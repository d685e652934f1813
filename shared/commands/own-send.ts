import { names } from '../aws/names.ts';
import { env } from '../config/env.ts';
import { saveMessage } from '../messages/repository.ts';
import { commandGroup } from '../queue/lane-keys.ts';
import { sendJson } from '../queue/send.ts';
import type { Session } from '../sessions/session.ts';
import { shardOf } from '../sessions/shard.ts';
import type { Command } from './types.ts';

type SendCommand = Extract<Command, { kind: 'send' }>;

/**
 * A message the session sends by itself (a chatbot reply, the answer to a declined call): stored as
 * `queued` outbound history, then a `send` command on the session's per-shard FIFO command queue,
 * the same path and statuses as an API send (`queued` → `sent` → `delivered` → `read`, paced per
 * session). Not counted against the monthly send quota. The ids come from the caller, derived from
 * what the message answers, so a repeat stores the same message (a no-op) and queues the same command
 * (FIFO de-duplication, then the host's done marker): sent once at most.
 */
export async function queueOwnSend(
  session: Session,
  s: {
    messageId: string;
    commandId: string;
    to: string;
    /** The history row's kind and text (a voice reply is stored as its text). */
    kind: 'text' | 'voice';
    text: string;
    content: SendCommand['content'];
    delivery?: SendCommand['delivery'];
  },
): Promise<void> {
  const { tenantId, sessionId } = session;
  const now = Date.now();
  await saveMessage({
    tenantId,
    sessionId,
    messageId: s.messageId,
    direction: 'outbound',
    chatId: s.to,
    senderPhone: session.mobile_number ?? null,
    senderName: session.name,
    kind: s.kind,
    text: s.text,
    status: 'queued',
    timestampMs: now,
    statusAt: now,
  });
  const command: SendCommand = {
    kind: 'send',
    commandId: s.commandId,
    tenantId,
    sessionId,
    issuedAt: now,
    messageId: s.messageId,
    to: s.to,
    content: s.content,
    ...(s.delivery ? { delivery: s.delivery } : {}),
  };
  await sendJson(names.commandQueue(shardOf(sessionId, env().SHARD_COUNT)), command, {
    groupId: commandGroup(sessionId),
    dedupId: command.commandId,
  });
}
