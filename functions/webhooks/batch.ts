import { indicesByKey, packInOrder } from '#shared/batching';
import { logger } from '#shared/log/logger';
import { TRANSACTION_MAX_ITEMS } from '#shared/store/db';
import { processInOrderGroups, processWebhookJob } from '#shared/webhooks/deliver';
import type { WebhookJob } from '#shared/webhooks/job';

/**
 * The lane of a job: a session's first attempts go out one at a time, in the order they were
 * queued (the order of its messages); retries (and jobs without a session) each on their own.
 */
export const laneOf = (job: Pick<WebhookJob, 'tenantId' | 'sessionId' | 'deliveryId' | 'attempt'>) =>
  job.sessionId && job.attempt === 1
    ? `session:${job.tenantId}:${job.sessionId}`
    : `delivery:${job.deliveryId}`;

/**
 * A batch of webhook jobs: the sessions' first attempts claimed and recorded together, each
 * session's POSTed in order, sessions side by side (`processInOrderGroups`); every other job on its
 * own, side by side. Answers, per job, whether it was handled (false: SQS delivers it again).
 */
export async function processWebhookBatch(jobs: WebhookJob[]): Promise<boolean[]> {
  const lanes = indicesByKey(jobs, laneOf);
  const ok: boolean[] = jobs.map(() => false);
  const inOrder = (idx: number[]) => laneOf(jobs[idx[0]!]!).startsWith('session:');
  const ordered = lanes.filter(inOrder);
  const alone = lanes.filter((idx) => !inOrder(idx)).flat();
  // A claim transaction takes at most 100 jobs: whole sessions packed into claims of at most that.
  await Promise.all([
    ...packInOrder(ordered, (idx) => [idx.length], [TRANSACTION_MAX_ITEMS]).map(async (pack) => {
      const done = await processInOrderGroups(pack.map((idx) => idx.map((i) => jobs[i]!)));
      pack.forEach((idx, g) => {
        idx.forEach((i, n) => {
          ok[i] = done[g]![n] === true;
        });
      });
    }),
    ...alone.map((i) =>
      processWebhookJob(jobs[i]!).then(
        () => {
          ok[i] = true;
        },
        (err: unknown) =>
          logger.error({ err, deliveryId: jobs[i]!.deliveryId }, 'webhook job failed; SQS will retry it'),
      ),
    ),
  ]);
  return ok;
}
