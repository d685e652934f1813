import type { SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { processRecords, type RecordHandler, type SqsHandler } from '#shared/queue/consumer';

/**
 * A FIFO queue batch handler: records of one MessageGroupId (one session) run in order, different
 * groups side by side. When a record fails, the rest of its group is reported failed unprocessed, so
 * a later command of that session never overtakes the failed one when SQS delivers them again.
 */
export function fifoBatchHandler<T>(schema: z.ZodType<T>, handle: RecordHandler<T>): SqsHandler {
  return async ({ Records }) => {
    const failures: Array<{ itemIdentifier: string }> = [];
    await Promise.all(
      [...groupsOf(Records).values()].map(async (group) => {
        for (const [i, record] of group.entries()) {
          const { batchItemFailures } = await processRecords([record], schema, handle);
          if (batchItemFailures.length) {
            failures.push(...group.slice(i).map((r) => ({ itemIdentifier: r.messageId })));
            return;
          }
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

/** Records by MessageGroupId, in batch order; a record without one is a group of its own. */
function groupsOf(records: SQSRecord[]): Map<string, SQSRecord[]> {
  const groups = new Map<string, SQSRecord[]>();
  for (const r of records) {
    const g = r.attributes?.MessageGroupId ?? r.messageId;
    const group = groups.get(g);
    if (group) group.push(r);
    else groups.set(g, [r]);
  }
  return groups;
}
