import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { sqsClient } from '../aws/clients.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { logger } from '../log/logger.ts';

export type RecordHandler<T> = (body: T, meta: { messageId: string; receiveCount: number }) => Promise<void>;

export interface ProcessOptions {
  /**
   * Run the batch's records side by side. Off by default: in order, a record can rely on the ones
   * before it (a LID mapping before the message from that LID).
   */
  concurrent?: boolean;
}

/**
 * Parses each record with `schema` and runs `handle`; failures are reported per record
 * (`reportBatchItemFailures`), so SQS retries only those and moves them to the DLQ after maxReceiveCount.
 * A record that does not parse is reported failed at once: it ends in the DLQ where it can be inspected.
 */
export async function processRecords<T>(
  records: SQSRecord[],
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
  opts: ProcessOptions = {},
): Promise<SQSBatchResponse> {
  const outcomes: boolean[] = [];
  if (opts.concurrent) {
    outcomes.push(...(await Promise.all(records.map((record) => processOne(record, schema, handle)))));
  } else {
    for (const record of records) outcomes.push(await processOne(record, schema, handle));
  }
  return {
    batchItemFailures: records.filter((_, i) => !outcomes[i]).map((r) => ({ itemIdentifier: r.messageId })),
  };
}

/** One record; answers false when SQS should deliver it again. */
async function processOne<T>(
  record: SQSRecord,
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
): Promise<boolean> {
  const meta = {
    messageId: record.messageId,
    receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? '1'),
  };
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    logger.warn({ messageId: record.messageId }, 'record body is not JSON');
    return false;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    logger.warn({ messageId: record.messageId, issues: parsed.error.issues.slice(0, 3) }, 'record rejected');
    return false;
  }
  try {
    await handle(parsed.data, meta);
    return true;
  } catch (err) {
    logger.error({ messageId: record.messageId, err }, 'record failed; SQS will retry it');
    return false;
  }
}

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export function sqsHandler<T>(
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
  opts: ProcessOptions = {},
): SqsHandler {
  return (event) => processRecords(event.Records, schema, handle, opts);
}

/**
 * Locally, the same Lambda handler is driven by a long-polling loop: receive, invoke, delete what
 * succeeded. Failed records become visible again after the visibility timeout, as with the Lambda trigger.
 */
export function pollQueue(
  queueName: string,
  handler: SqsHandler,
  opts: { waitSeconds?: number; batchSize?: number; visibilityTimeout?: number } = {},
): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    const url = await queueUrl(queueName);
    while (running) {
      try {
        const r = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: opts.batchSize ?? 10,
            WaitTimeSeconds: opts.waitSeconds ?? 1,
            VisibilityTimeout: opts.visibilityTimeout,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'MessageGroupId'],
          }),
        );
        const messages = r.Messages ?? [];
        if (!messages.length) continue;
        const records = messages.map(
          (m) =>
            ({
              messageId: m.MessageId ?? '',
              receiptHandle: m.ReceiptHandle ?? '',
              body: m.Body ?? '',
              attributes: m.Attributes ?? {},
              messageAttributes: {},
              md5OfBody: m.MD5OfBody ?? '',
              eventSource: 'aws:sqs',
              eventSourceARN: queueName,
              awsRegion: process.env.AWS_REGION ?? 'us-east-1',
            }) as SQSRecord,
        );
        const heartbeat = opts.visibilityTimeout
          ? keepInvisible(url, messages, opts.visibilityTimeout)
          : undefined;
        const { batchItemFailures } = await handler({ Records: records }).finally(() =>
          clearInterval(heartbeat),
        );
        const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
        const done = messages.filter((m) => !failed.has(m.MessageId ?? ''));
        if (done.length) {
          await sqsClient().send(
            new DeleteMessageBatchCommand({
              QueueUrl: url,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          );
        }
      } catch (err) {
        if (!running) break;
        logger.error({ err, queue: queueName }, 'poll failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * While a batch is being worked on, keeps extending its visibility, so a short timeout can be used:
 * if this process dies, its messages come back to another consumer within `seconds`.
 */
function keepInvisible(url: string, messages: Array<{ ReceiptHandle?: string }>, seconds: number) {
  return setInterval(
    () => {
      sqsClient()
        .send(
          new ChangeMessageVisibilityBatchCommand({
            QueueUrl: url,
            Entries: messages.map((m, i) => ({
              Id: String(i),
              ReceiptHandle: m.ReceiptHandle,
              VisibilityTimeout: seconds,
            })),
          }),
        )
        .catch((err) => logger.warn({ err }, 'visibility extension failed'));
    },
    Math.max(1000, (seconds * 1000) / 3),
  );
}
