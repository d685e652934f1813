import { names } from '../aws/names.ts';
import { env } from '../config/env.ts';
import { type InboundMessage, isDecryptFailed } from '../messages/content.ts';
import { isGroupJid, parseJid } from '../phone/jid.ts';
import { SQS_MAX_DELAY_SECONDS } from '../queue/limits.ts';
import { sendJson } from '../queue/send.ts';
import { chatbotMayAct } from './gate.ts';
import type { ChatbotJob } from './job.ts';

/**
 * Why an inbound message gets no automatic reply, or undefined when the chatbot may answer it. Only
 * 1:1 chats with a text are answered: never a group, a status broadcast or newsletter, a message
 * replayed from the network's offline queue (`backlog`), an undecryptable message's placeholder, nor one older than CHATBOT_MAX_MESSAGE_AGE_S
 * (docs/events.md, "Backlog"). Own messages never arrive as inbound (the drivers drop them); the
 * chatbot consumer checks the sender against the session's number once more.
 */
export function notForChatbot(
  m: InboundMessage,
  now = Date.now(),
  maxAgeS = env().CHATBOT_MAX_MESSAGE_AGE_S,
) {
  if (m.groupId || isGroupJid(m.chatId)) return 'group';
  const server = parseJid(m.chatId)?.server;
  if (server === 'broadcast' || server === 'newsletter') return 'broadcast';
  if (m.backlog) return 'backlog';
  // A placeholder has nothing to answer; its real message, if the sender sends it again, is a turn.
  if (isDecryptFailed(m)) return 'undecryptable';
  if (now - m.timestampMs > maxAgeS * 1000) return 'too old';
  if (!(m.text ?? m.caption)?.trim()) return 'no text';
  return undefined;
}

/**
 * Queues the chatbot's job for an inbound message the chatbot may answer, delayed by the debounce
 * window (CHATBOT_DEBOUNCE_MS, rounded up to whole seconds, the unit of SQS DelaySeconds). Whether the
 * session's switches and rules make it answer is the chatbot consumer's decision; here only a tenant
 * with no rule and no switch turned on is skipped (shared/chatbot/gate.ts, a cached read per tenant). A
 * repeat of the same host event queues a second job; the consumer's per-message marker answers once.
 */
export async function enqueueChatbotTurn(
  tenantId: string,
  sessionId: string,
  m: InboundMessage,
): Promise<void> {
  if (notForChatbot(m) || !(await chatbotMayAct(tenantId))) return;
  const job: ChatbotJob = {
    tenantId,
    sessionId,
    chatId: m.chatId,
    messageId: m.id,
    timestampMs: m.timestampMs,
    queuedAt: Date.now(),
  };
  await sendJson(names.chatbotQueue(), job, {
    delaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(env().CHATBOT_DEBOUNCE_MS / 1000)),
  });
}
