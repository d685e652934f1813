import type { SQSEvent } from 'aws-lambda';
import { loadSecrets } from '#shared/config/load-secrets';
import { MediaJob } from '#shared/media/job';
import { sqsHandler } from '#shared/queue/consumer';
import { handleMediaJob } from './consumer.ts';

/** SQS (media queue) → analyse the stored media → publish the message (feed, webhook, chatbot). */
const handleJobs = sqsHandler(
  MediaJob,
  async (job, meta) => {
    await handleMediaJob(job, meta);
  },
  { concurrent: true },
);

/** The model keys (image, document and video understanding) come from AI_KEYS_SECRET_ARN in the cloud. */
export const handler = async (event: SQSEvent) => {
  await loadSecrets();
  return handleJobs(event);
};
