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
      MessageBody: asciiJson(body),
      MessageGroupId: opt.groupId,
      MessageDeduplicationId: opt.dedupId,
      DelaySeconds: opt.delaySeconds,
    }),
  );
}

/**
 * JSON with every non-ASCII character written as a `\\uXXXX` escape: the same value once parsed, and
 * safe for any SQS implementation (some local ones refuse characters outside the BMP, such as emoji).
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
