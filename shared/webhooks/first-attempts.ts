import { indicesByKey } from '../batching.ts';
import { env } from '../config/env.ts';
import { logger } from '../log/logger.ts';
import { must } from '../must.ts';
import { type AttemptResult, attempt } from './attempt.ts';
import { newDraftOf } from './claim.ts';
import { sendJobs, TAKEOVER_DELAY_MS, type WebhookJob } from './job.ts';
import { type DeliveryDraft, newDelivery } from './lifecycle.ts';
import { recordFirstOutcome } from './repository.ts';
import { afterSettled, settlementOf } from './settlement.ts';
import { isSlow, markSlow } from './slow-tenants.ts';

/**
 * The first attempts of new deliveries, made right here instead of through the webhooks queue (the
 * events consumer's, once their messages are stored): each session's POSTed one after another in
 * their order, sessions side by side, with no claim (their messages were stored by this caller, so
 * nobody else has their jobs yet), and each delivery's record created once, with its outcome. What the budget leaves, and every job that does not carry its payload, goes to the
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
  const here: FirstAttempt[] = [];
  const elsewhere: WebhookJob[] = [];
  for (const job of jobs) {
    const fresh = isSlow(job.tenantId) ? undefined : newDraftOf(job);
    if (fresh) here.push({ job, ...fresh, state: 'waiting' });
    else elsewhere.push(job);
  }
  // The others are queued at once (records written already, or created by their claim).
  const queued = sendJobs(elsewhere);
  queued.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const deadline = performance.now() + budgetMs;
  const posting = Promise.all(
    indicesByKey(here, (a) => `${a.job.tenantId}\0${a.job.sessionId}`).map(async (idx) => {
      for (const i of idx) {
        const a = must(here[i], `first attempt ${i}`);
        if (performance.now() >= deadline) return;
        a.state = 'posting';
        try {
          a.result = await attempt(a.draft, 1);
          a.state = 'made';
        } catch (err) {
          // Nothing was sent (the configuration could not be read): the queue tries it, and the
          // session's later jobs, in order.
          logger.warn({ err, deliveryId: a.job.deliveryId }, 'first attempt not made; queued');
          a.state = 'waiting';
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
  const made = here.filter((a) => a.state === 'made');
  const notMade = here.filter((a) => a.state === 'waiting');
  const underWay = here.filter((a) => a.state === 'posting');
  // Marked before the jobs below are queued: they, and the tenant's next ones, go its own way.
  // One sign per tenant and batch, however many of its attempts were under way.
  for (const tenant of new Set(underWay.map((a) => a.job.tenantId))) markSlow(tenant);
  await Promise.all([
    recordOutcomes(made),
    queued,
    sendJobs(notMade.map((a) => a.job)),
    // Under way at the deadline: the job finds the outcome recorded by then, or makes the attempt.
    sendJobs(
      underWay.map((a) => a.job),
      TAKEOVER_DELAY_MS,
    ),
  ]);
  if (underWay.length) {
    // This process lives on (a Lambda is frozen instead, and the takeover job does the rest).
    void posting
      .then(() => recordOutcomes(underWay.filter((a) => a.state === 'made')))
      .catch((err: unknown) =>
        logger.warn({ err }, 'late first attempts not recorded; their takeover jobs will'),
      );
  }
}

/** One new delivery's first attempt made here: its job, what it sends, and how far it got. */
interface FirstAttempt {
  job: WebhookJob;
  draft: DeliveryDraft;
  /** When the delivery was made (its job's `createdAt`). */
  createdAt: number;
  state: 'waiting' | 'posting' | 'made';
  result?: AttemptResult;
}

/**
 * Creates the records of first attempts made here, each with its outcome in one conditional write
 * (`firstOutcome`: a record that exists already belongs to a queued attempt that got there first,
 * and its outcome stands), side by side: not a transaction, which costs twice the write units.
 * Then retries are queued and dead letters sent. A record that could not be written at all is left
 * to a queued attempt, which POSTs again (receivers deduplicate on the delivery id).
 */
async function recordOutcomes(made: FirstAttempt[]): Promise<void> {
  await Promise.all(
    made.map(async (a) => {
      const plan = settlementOf(a.job, a.draft.event, must(a.result, 'the result of a first attempt made'));
      const record = newDelivery(a.draft, a.createdAt, { step: 'firstOutcome', outcome: plan.outcome });
      let recorded: boolean;
      try {
        recorded = await recordFirstOutcome(record, a.createdAt);
      } catch (err) {
        logger.error({ err, ...plan.log }, 'first attempt outcome not recorded; queued again');
        await sendJobs([a.job]);
        return;
      }
      if (!recorded) return logger.info(plan.log, 'first attempt made twice; the other outcome stands');
      await afterSettled(a.job, a.draft.event, plan);
    }),
  );
}
