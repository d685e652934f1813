import { z } from 'zod';

/**
 * One inbound message the chatbot may answer, on the chatbot queue (docs/chatbot.md, "Pipeline and
 * delivery"). The events consumer sends it with a delay of the debounce window; the chatbot consumer
 * answers the newest inbound message of the chat, for every message since the last reply.
 */
export const ChatbotJob = z.object({
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
  chatId: z.string().min(1),
  messageId: z.string().min(1),
  /** The inbound message's own time (epoch ms), for the age rule. */
  timestampMs: z.number(),
  /** When the events consumer queued it (epoch ms), for latency telemetry. */
  queuedAt: z.number(),
});
export type ChatbotJob = z.infer<typeof ChatbotJob>;
