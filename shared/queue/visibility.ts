import { ChangeMessageVisibilityBatchCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { logger } from '../log/logger.ts';
import { SQS_BATCH_MAX } from './limits.ts';

/**
 * Sets how long received messages stay hidden (0: visible again at once), each its own, in
 * batches of SQS's limit of entries.
 */
export async function changeVisibility(
  url: string,
  items: Array<{ receiptHandle?: string; seconds: number }>,
): Promise<void> {
  for (let i = 0; i < items.length; i += SQS_BATCH_MAX) {
    await sqsClient().send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: url,
        Entries: items.slice(i, i + SQS_BATCH_MAX).map((m, j) => ({
          Id: String(j),
          ReceiptHandle: m.receiptHandle,
          VisibilityTimeout: m.seconds,
        })),
      }),
    );
  }
}

/**
 * While a batch is being worked on, keeps extending its visibility, so a short timeout can be used:
 * if this process dies, its messages come back to another consumer within `seconds`.
 */
export function keepInvisible(
  url: string,
  messages: Array<{ ReceiptHandle?: string }>,
  seconds: number,
): NodeJS.Timeout {
  const items = messages.map((m) => ({ receiptHandle: m.ReceiptHandle, seconds }));
  return setInterval(
    () => {
      changeVisibility(url, items).catch((err) => logger.warn({ err }, 'visibility extension failed'));
    },
    Math.max(1000, (seconds * 1000) / 3),
  );
}
