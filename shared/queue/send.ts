import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { queueUrl } from '../aws/queue-url.ts';

/** Sends one JSON message. FIFO queues need `groupId` and `dedupId`. */
export async function sendJson(
  queueName: string,
  body: unknown,
  opt: { groupId?: string; dedupId?: string; delaySeconds?: number } = {},
): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: await queueUrl(queueName),
      MessageBody: JSON.stringify(body),
      MessageGroupId: opt.groupId,
      MessageDeduplicationId: opt.dedupId,
      DelaySeconds: opt.delaySeconds,
    }),
  );
}
