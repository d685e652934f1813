import { createHash } from 'node:crypto';
import { queueOwnSend } from '#shared/commands/own-send';
import type { Session } from '#shared/sessions/session';

const hashOf = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * The reply's ids derive from the inbound message it answers, so a redelivered chatbot job stores the
 * same message (a no-op) and queues the same command (FIFO de-duplication, then the host's done
 * marker): one reply at most, whatever runs twice. The message id looks like the network's own.
 */
export function replyIds(tenantId: string, sessionId: string, inboundId: string) {
  const h = hashOf(tenantId, sessionId, inboundId, 'chatbot-reply');
  return { messageId: `3EB0${h.slice(0, 16).toUpperCase()}`, commandId: `cmd_cb${h.slice(16, 46)}` };
}

/**
 * Stores the reply as `queued` outbound history and hands the host a `send` command with human-like
 * delivery, on the session's per-shard FIFO command queue: the same path and statuses as an API
 * send (`queued` → `sent` → `delivered` → `read`, paced per session). Automatic replies are not
 * counted against the session's monthly send quota; they are counted in the AI usage.
 */
export async function dispatchReply(
  session: Session,
  to: string,
  inboundId: string,
  text: string,
  /** Spoken as a voice note (speech synthesis on the host) instead of sent as text. */
  voice?: { lang?: string },
): Promise<{ messageId: string; commandId: string }> {
  const ids = replyIds(session.tenantId, session.sessionId, inboundId);
  await queueOwnSend(session, {
    ...ids,
    to,
    kind: voice ? 'voice' : 'text',
    text,
    content: voice ? { kind: 'voice', speech: { text, lang: voice.lang } } : { kind: 'text', text },
    delivery: { humanLike: true, presence: voice ? 'recording' : 'composing' },
  });
  return ids;
}
