import type { Message } from '@aws-sdk/client-sqs';
import type { z } from 'zod';
import { indicesByKey } from '#shared/batching';
import { must } from '#shared/must';
import type { MessageHandler } from '#shared/queue/poller';
import { handleBody, type RecordHandler } from '#shared/queue/received';

/**
 * A FIFO queue batch handler for the host's poller: messages of one MessageGroupId (one session) run
 * in order, different groups side by side, each parsed with `schema` and handed to `handle` as it
 * is (no Lambda record in between). When a message fails, the rest of its group is reported failed
 * unprocessed, so a later command of that session never overtakes the failed one when SQS delivers
 * them again.
 */
export function fifoBatchHandler<T>(schema: z.ZodType<T>, handle: RecordHandler<T>): MessageHandler {
  return async (messages) => {
    const failed: Message[] = [];
    // A message without a MessageGroupId is a group of its own.
    const groups = indicesByKey(messages, (m) => m.Attributes?.MessageGroupId ?? m.MessageId ?? '');
    await Promise.all(
      groups.map(async (idx) => {
        const group = idx.map((i) => must(messages[i], `message ${i} of the batch`));
        for (const [i, m] of group.entries()) {
          const meta = {
            messageId: m.MessageId ?? '',
            receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? '1'),
          };
          if (!(await handleBody(m.Body ?? '', meta, schema, handle))) {
            failed.push(...group.slice(i));
            return;
          }
        }
      }),
    );
    return failed;
  };
}
