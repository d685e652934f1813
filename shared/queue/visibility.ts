import { ChangeMessageVisibilityBatchCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';

/**
 * Sets how long received messages stay hidden (0: visible again at once), each its own, in
 * batches of SQS's limit of 10 entries.
 */
export async function changeVisibility(
  url: string,
  items: Array<{ receiptHandle?: string; seconds: number }>,
): Promise<void> {
  for (let i = 0; i < items.length; i += 10) {
    await sqsClient().send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: url,
        Entries: items.slice(i, i + 10).map((m, j) => ({
          Id: String(j),
          ReceiptHandle: m.receiptHandle,
          VisibilityTimeout: m.seconds,
        })),
      }),
    );
  }
}
