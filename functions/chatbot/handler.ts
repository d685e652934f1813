import type { SQSEvent } from 'aws-lambda';
import { ChatbotJob } from '#shared/chatbot/job';
import { loadSecrets } from '#shared/config/load-secrets';
import { sqsHandler } from '#shared/queue/consumer';
import { handleChatbotJob } from './consumer.ts';

/** SQS (chatbot queue) → evaluate the turn → reply command to the host, usage, `chatbot.reply` webhook. */
const handleJobs = sqsHandler(
  ChatbotJob,
  async (job) => {
    await handleChatbotJob(job);
  },
  { concurrent: true },
);

/** The model keys come from Secrets Manager in the cloud (AI_KEYS_SECRET_ARN), once per cold start. */
export const handler = async (event: SQSEvent) => {
  await loadSecrets();
  return handleJobs(event);
};
