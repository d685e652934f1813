import { ChatbotJob } from '#shared/chatbot/job';
import { sqsHandler } from '#shared/queue/consumer';
import { handleChatbotJob } from './consumer.ts';

/** SQS (chatbot queue) → evaluate the turn → reply command to the host, usage, `chatbot.reply` webhook. */
export const handler = sqsHandler(
  ChatbotJob,
  async (job) => {
    await handleChatbotJob(job);
  },
  { concurrent: true },
);
