import type { Message } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { runtimeEnv } from '#shared/config/env';
import type { SqsHandler } from '#shared/queue/consumer';
import type { MessageHandler } from '#shared/queue/poller';

/**
 * Local mode plays the Lambda SQS trigger: the very handler modules the Lambdas deploy
 * (functions/<consumer>/handler.ts) get the poller's messages as the records the trigger would hand
 * them, and their reported failures are the messages left to the queue. Only here: the connection
 * host hands its commands to the command handler as they are (connection-host/command-queues.ts).
 */
export function lambdaTrigger(queueName: string, handler: SqsHandler): MessageHandler {
  return async (messages) => {
    const { batchItemFailures } = await handler({ Records: messages.map((m) => toRecord(queueName, m)) });
    const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
    return messages.filter((m) => failed.has(m.MessageId ?? ''));
  };
}

/** A received message as the trigger's record; the event source ARN is the queue's name (its last part). */
const toRecord = (queueName: string, m: Message): SQSRecord =>
  ({
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: m.Attributes ?? {},
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueName,
    awsRegion: runtimeEnv().AWS_REGION,
  }) as SQSRecord;
