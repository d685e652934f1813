import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { packInOrder } from '../batching.ts';
import { SQS_BATCH_MAX } from './limits.ts';

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

/** What SendMessageBatch takes at most: ten entries, and a total size we keep well under SQS's 256 KiB. */
export const BATCH_MAX_ENTRIES = SQS_BATCH_MAX;
export const BATCH_MAX_BYTES = 200 * 1024;

/**
 * Sends up to ten JSON messages in one request (standard queues), in the given order, each delayed
 * by `delaySeconds` when given. Answers, per body, the error that kept it from the queue, or
 * undefined when it was queued.
 */
export async function sendJsonBatch(
  queueName: string,
  bodies: unknown[],
  delaySeconds?: number,
): Promise<Array<Error | undefined>> {
  if (bodies.length > BATCH_MAX_ENTRIES) throw new Error(`at most ${BATCH_MAX_ENTRIES} messages per batch`);
  const r = await sqsClient().send(
    new SendMessageBatchCommand({
      QueueUrl: await queueUrl(queueName),
      Entries: bodies.map((b, i) => ({
        Id: String(i),
        MessageBody: asciiJson(b),
        DelaySeconds: delaySeconds,
      })),
    }),
  );
  const failed = new Map((r.Failed ?? []).map((f) => [f.Id, f]));
  return bodies.map((_, i) => {
    const f = failed.get(String(i));
    return f ? new Error(`SQS refused the message: ${f.Code} ${f.Message ?? ''}`.trim()) : undefined;
  });
}

/**
 * Bodies in their order, in the batches one `sendJsonBatch` each takes: at most ten, and together
 * under `BATCH_MAX_BYTES` as sent (text in a non-Latin script grows up to sixfold once escaped). A
 * body larger than that goes alone.
 */
export const batchesOf = <T>(bodies: T[]): T[][] =>
  packInOrder(bodies, (b) => [1, jsonSize(b)], [BATCH_MAX_ENTRIES, BATCH_MAX_BYTES]);

/** The size of a body as `sendJson` writes it. */
export function jsonSize(body: unknown): number {
  return asciiJson(body).length;
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
