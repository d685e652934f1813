import { indicesByKey, packInOrder } from '#shared/batching';
import { logger } from '#shared/log/logger';
import { must } from '#shared/must';
import { sessionLane } from '#shared/queue/lane-keys';
import { TRANSACTION_MAX_ITEMS } from '#shared/store/db';
import { processInOrderGroups, processWebhookJob } from '#shared/webhooks/deliver';
import { sendJob, type WebhookJob } from '#shared/webhooks/job';
import { isSlow, requeueDelayMs, takeSlot } from '#shared/webhooks/slow-tenants';

/**
 * The lane of a job: a session's first attempts go out one at a time, in the order they were
 * queued (the order of its messages); retries (and jobs without a session) each on their own.
 */
export const laneOf = (job: Pick<WebhookJob, 'tenantId' | 'sessionId' | 'deliveryId' | 'attempt'>) =>
  job.sessionId && job.attempt === 1
    ? `${SESSION}${sessionLane({ tenantId: job.tenantId, sessionId: job.sessionId })}`
    : `delivery:${job.deliveryId}`;
const SESSION = 'session:';

/**
 * A batch of webhook jobs: the sessions' first attempts claimed and recorded together, each
 * session's POSTed in order, sessions side by side (`processInOrderGroups`); every other job on its
 * own, side by side. A slow tenant's jobs (`slow-tenants.ts`) are not in the groups, whose outcomes
 * wait for their slowest POST: each goes on its own, at most a few of that tenant's at once in this
 * process, and the rest back on the queue for later. Answers, per job, whether it was handled
 * (false: SQS delivers it again).
 */
export async function processWebhookBatch(jobs: WebhookJob[]): Promise<boolean[]> {
  const ok: boolean[] = jobs.map(() => false);
  const job = (i: number) => must(jobs[i], `job ${i} of the batch`);
  const slow = jobs.map((j) => isSlow(j.tenantId));
  const lanes = indicesByKey(jobs, laneOf).flatMap((idx) => {
    const kept = idx.filter((i) => !slow[i]);
    return kept.length ? [kept] : [];
  });
  const inOrder = (idx: number[]) => laneOf(job(must(idx[0], 'a first index of a lane'))).startsWith(SESSION);
  const ordered = lanes.filter(inOrder);
  const alone = lanes.filter((idx) => !inOrder(idx)).flat();
  const handled = (i: number) => () => {
    ok[i] = true;
  };
  const failed = (i: number) => (err: unknown) =>
    logger.error({ err, deliveryId: job(i).deliveryId }, 'webhook job failed; SQS will retry it');
  // A claim transaction takes at most 100 jobs: whole sessions packed into claims of at most that.
  await Promise.all([
    ...packInOrder(ordered, (idx) => [idx.length], [TRANSACTION_MAX_ITEMS]).map(async (pack) => {
      const done = await processInOrderGroups(pack.map((idx) => idx.map(job)));
      pack.forEach((idx, g) => {
        idx.forEach((i, n) => {
          ok[i] = done[g]?.[n] === true;
        });
      });
    }),
    ...alone.map((i) => processWebhookJob(job(i)).then(handled(i), failed(i))),
    ...jobs.flatMap((job, i) => (slow[i] ? [slowTenantJob(job).then(handled(i), failed(i))] : [])),
  ]);
  return ok;
}

/** One job of a slow tenant: made now if the tenant has a slot free here, else queued again for later. */
async function slowTenantJob(job: WebhookJob): Promise<void> {
  const free = takeSlot(job.tenantId);
  if (!free) return sendJob(job, requeueDelayMs(job.tenantId));
  try {
    await processWebhookJob(job);
  } finally {
    free();
  }
}
