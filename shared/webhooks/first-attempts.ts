import { indicesByKey, packInOrder } from '../batching.ts';
import { env } from '../config/env.ts';
import { logger } from '../log/logger.ts';
import { TRANSACTION_MAX_ITEMS } from '../store/db.ts';
import { dataTable } from '../store/tables.ts';
import { type AttemptResult, afterSettled, attempt, carried, settlementOf } from './deliver.ts';
import { sendJobs, TAKEOVER_DELAY_MS, type WebhookJob } from './job.ts';
import { firstOutcomeOp, recordFirstOutcome } from './repository.ts';
import { isSlow, markSlow } from './slow-tenants.ts';

/**
 * The first attempts of new deliveries, made right here instead of through the webhooks queue (the
 * events consumer's, once their messages are stored): each session's POSTed one after another in
 * their order, sessions side by side, with no claim (their messages were stored by this caller, so
 * nobody else has their jobs yet), and each delivery's record created with its outcome, all in one
 * transaction. What the budget leaves, and every job that does not carry its payload, goes to the
 * webhooks queue as before; retries and dead letters follow as from the webhooks consumer.
 *
 * The consumer's next batch waits for this one, so a slow receiver would hold up every tenant's
 * next messages (their store writes and so their stream). It does so at most `budgetMs`, once: a
 * tenant with an attempt still under way at the deadline, or a slow answer anywhere in this
 * process, is slow for a while (`slow-tenants.ts`), and its first attempts go straight to the queue
 * without being waited for.
 */
export async function deliverFirstAttempts(
  jobs: WebhookJob[],
  budgetMs = env().WEBHOOK_FIRST_ATTEMPTS_BUDGET_MS,
): Promise<void> {
  const mine = jobs.map((j) => madeHere(j) && !isSlow(j.tenantId));
  const here = jobs.filter((_, i) => mine[i]);
  // The others are queued at once (records written already, or created by their claim).
  const queued = sendJobs(jobs.filter((_, i) => !mine[i]));
  queued.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const results: Array<AttemptResult | undefined> = here.map(() => undefined);
  const started: boolean[] = here.map(() => false);
  const deadline = performance.now() + budgetMs;
  const posting = Promise.all(
    indicesByKey(here, (j) => `${j.tenantId}\0${j.sessionId}`).map(async (idx) => {
      for (const i of idx) {
        if (performance.now() >= deadline) return;
        started[i] = true;
        try {
          results[i] = await attempt(carried(here[i]!)!, 1);
        } catch (err) {
          // Nothing was sent (the configuration could not be read): the queue tries it, and the
          // session's later jobs, in order.
          logger.warn({ err, deliveryId: here[i]!.deliveryId }, 'first attempt not made; queued');
          started[i] = false;
          return;
        }
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  if (here.length) {
    await Promise.race([
      posting,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, budgetMs);
      }),
    ]);
  }
  clearTimeout(timer);
  const made = here.flatMap((_, i) => (results[i] ? [i] : []));
  const notMade = here.flatMap((_, i) => (started[i] ? [] : [i]));
  const underWay = here.flatMap((_, i) => (started[i] && !results[i] ? [i] : []));
  // Marked before the jobs below are queued: they, and the tenant's next ones, go its own way.
  // One sign per tenant and batch, however many of its attempts were under way.
  for (const tenant of new Set(underWay.map((i) => here[i]!.tenantId))) markSlow(tenant);
  await Promise.all([
    recordOutcomes(
      made.map((i) => here[i]!),
      made.map((i) => results[i]!),
    ),
    queued,
    sendJobs(notMade.map((i) => here[i]!)),
    // Under way at the deadline: the job finds the outcome recorded by then, or makes the attempt.
    sendJobs(
      underWay.map((i) => here[i]!),
      TAKEOVER_DELAY_MS,
    ),
  ]);
  if (underWay.length) {
    // This process lives on (a Lambda is frozen instead, and the takeover job does the rest).
    void posting
      .then(() => {
        const ended = underWay.filter((i) => results[i]);
        return recordOutcomes(
          ended.map((i) => here[i]!),
          ended.map((i) => results[i]!),
        );
      })
      .catch((err: unknown) =>
        logger.warn({ err }, 'late first attempts not recorded; their takeover jobs will'),
      );
  }
}

/** A new delivery's first attempt that carries its payload and whose record is not written yet. */
const madeHere = (job: WebhookJob) => job.createdAt !== undefined && carried(job) !== undefined;

/**
 * Creates the records of first attempts made here, with their outcomes: in as few transactions as
 * they fit in, else one by one (a record that exists already belongs to a queued attempt that got
 * there first: its outcome stands). Then retries are queued and dead letters sent. A record that
 * could not be written at all is left to a queued attempt, which POSTs again (receivers deduplicate
 * on the delivery id).
 */
async function recordOutcomes(jobs: WebhookJob[], results: AttemptResult[]): Promise<void> {
  if (!jobs.length) return;
  const deliveries = jobs.map((j) => carried(j)!);
  const plans = jobs.map((j, i) => settlementOf(j, deliveries[i]!, results[i]!));
  const packs = packInOrder(
    jobs.map((_, i) => i),
    (i) => [1, deliveries[i]!.body.length],
    [TRANSACTION_MAX_ITEMS, 2_000_000],
  );
  const recorded: boolean[] = jobs.map(() => false);
  const lost: number[] = [];
  await Promise.all(
    packs.map(async (pack) => {
      const ops = pack.map((i) =>
        firstOutcomeOp(deliveries[i]!, jobs[i]!.createdAt!, plans[i]!.record, plans[i]!.next),
      );
      const together = await dataTable.transact(ops).catch((err: unknown) => {
        logger.warn(
          { err, deliveries: pack.length },
          'first attempt outcomes not recorded at once; one by one',
        );
        return false;
      });
      if (together) {
        for (const i of pack) recorded[i] = true;
        return;
      }
      await Promise.all(
        pack.map(async (i) => {
          try {
            recorded[i] = await recordFirstOutcome(
              deliveries[i]!,
              jobs[i]!.createdAt!,
              plans[i]!.record,
              plans[i]!.next,
            );
            if (!recorded[i])
              logger.info(plans[i]!.log, 'first attempt made twice; the other outcome stands');
          } catch (err) {
            logger.error({ err, ...plans[i]!.log }, 'first attempt outcome not recorded; queued again');
            lost.push(i);
          }
        }),
      );
    }),
  );
  await Promise.all([
    sendJobs(lost.map((i) => jobs[i]!)),
    ...jobs.flatMap((job, i) => (recorded[i] ? [afterSettled(job, deliveries[i]!, plans[i]!)] : [])),
  ]);
}
