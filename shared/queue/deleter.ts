import { DeleteMessageBatchCommand, type Message } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { logger } from '../log/logger.ts';
import { SQS_BATCH_MAX } from './limits.ts';

/**
 * Deletes the poller's handled messages in batches of up to ten (SQS's limit), one request in
 * flight at a time, so that messages handled meanwhile join the next request instead of each
 * paying one. A failed delete is only logged: the messages are delivered again and the handlers
 * are idempotent.
 */
export class Deleter {
  private pending: Message[] = [];
  private flushing: Promise<void> | undefined;
  constructor(private readonly url: string) {}

  add(m: Message): void {
    this.pending.push(m);
    this.flushing ??= Promise.resolve().then(() => this.drain());
  }

  async flush(): Promise<void> {
    this.flushing ??= Promise.resolve().then(() => this.drain());
    await this.flushing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, SQS_BATCH_MAX);
        await sqsClient()
          .send(
            new DeleteMessageBatchCommand({
              QueueUrl: this.url,
              Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          )
          .catch((err) => logger.warn({ err }, 'delete failed; the messages will be delivered again'));
      }
    } finally {
      this.flushing = undefined;
    }
  }
}
