import type { z } from 'zod';
import { logger } from '../log/logger.ts';
import { observeQueueAge } from '../metrics/metrics.ts';

/**
 * One received message, whichever runtime handed it over: a Lambda's SQS record
 * (shared/queue/consumer.ts) or a message the host's poller received (connection-host/fifo-batch.ts).
 * Both parse, handle and observe it here, so neither dresses its input as the other's.
 */

export interface RecordMeta {
  messageId: string;
  receiveCount: number;
}

export type RecordHandler<T> = (body: T, meta: RecordMeta) => Promise<void>;

/** The body parsed with `schema`, or undefined (logged) when it is not JSON or does not fit. */
export function parseBody<T>(messageId: string, body: string, schema: z.ZodType<T>): { data: T } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    logger.warn({ messageId }, 'record body is not JSON');
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    logger.warn({ messageId, issues: parsed.error.issues.slice(0, 3) }, 'record rejected');
    return undefined;
  }
  return { data: parsed.data };
}

/** Parses and handles one message; answers false when SQS should deliver it again. */
export async function handleBody<T>(
  body: string,
  meta: RecordMeta,
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
): Promise<boolean> {
  const parsed = parseBody(meta.messageId, body, schema);
  if (parsed === undefined) return false;
  try {
    await handle(parsed.data, meta);
    return true;
  } catch (err) {
    logger.error({ messageId: meta.messageId, err }, 'record failed; SQS will retry it');
    return false;
  }
}

/** How long a message waited in `queue` (its SentTimestamp attribute, when SQS gave it). */
export function observeAge(queue: string, sentTimestamp: string | undefined, now = Date.now()): void {
  const sent = Number(sentTimestamp);
  if (sent > 0) observeQueueAge(queue, now - sent);
}
