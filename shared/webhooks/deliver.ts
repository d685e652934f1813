import { logger } from '../log/logger.ts';
import { must } from '../must.ts';
import { dataTable } from '../store/tables.ts';
import { type AttemptResult, attempt } from './attempt.ts';
import { claimAll, claimJob, type JobRun, runOf } from './claim.ts';
import { STALE_CLAIM_MS, type WebhookJob } from './job.ts';
import type { Delivery } from './lifecycle.ts';
import { finishAttemptOp } from './repository.ts';
import { afterSettled, settle, settlementOf } from './settlement.ts';

/*
 * The webhooks consumer's jobs, one at a time or in ordered groups: claim (claim.ts), POST
 * (attempt.ts), record the outcome and what follows (settlement.ts).
 */

/** Runs attempt `job.attempt` of a delivery at most once, then schedules the next one or gives up. */
export async function processWebhookJob(job: WebhookJob): Promise<void> {
  const run = runOf(job);
  run.claimed = await claimJob(run);
  if (!run.claimed) return;
  await settle(run, run.claimed, await attempt(run.claimed, job.attempt));
}

/**
 * Groups of jobs, each group's POSTs in its order (a session's first attempts), the groups side by
 * side. The usual case costs two store requests for all the groups together: one transaction claims
 * every job (the new deliveries' jobs carry their payload; others are read back in one consistent
 * batch read), the POSTs go out, and one transaction records every outcome. Whenever the claim does
 * not go through (a job already claimed or done, a repeated job, a conflict), each group goes job by
 * job instead (`inOrderOneByOne`), which resolves each case. Answers, per job, whether it was handled
 * (false: SQS delivers it again).
 */
export async function processInOrderGroups(groups: WebhookJob[][]): Promise<boolean[][]> {
  const runs = groups.map((group) => group.map(runOf));
  const claimedAt = Date.now();
  const claimed = await claimAll(runs.flat());
  // Claimed but not read back: the jobs go back to SQS, whose redelivery takes the claims over once
  // they are stale (job by job here would find them claimed and drop them).
  if (claimed === 'again') return runs.map((group) => group.map(() => false));
  if (claimed === 'no') return Promise.all(runs.map(inOrderOneByOne));
  await Promise.all(
    runs.map(async (group) => {
      // Slow receivers: a claim must not grow stale before its POST (another consumer could then
      // take it), so the jobs not started by half the stale age are left to SQS; their claims expire.
      for (const run of group) {
        if (Date.now() - claimedAt >= STALE_CLAIM_MS / 2) break;
        if (run.claimed) run.result = await attempt(run.claimed, run.job.attempt);
      }
    }),
  );
  await settleAll(
    runs
      .flat()
      .flatMap((run) =>
        run.claimed && run.result ? [{ run, claimed: run.claimed, result: run.result }] : [],
      ),
  );
  return runs.map((group) => group.map((r) => r.done));
}

/** A job whose attempt was made: its claimed delivery and the attempt's result. */
interface Made {
  run: JobRun;
  claimed: Delivery;
  result: AttemptResult;
}

/** Records every outcome in one transaction, then schedules retries and dead letters. */
async function settleAll(attempts: Made[]): Promise<void> {
  const made = attempts.map((m) => ({ ...m, plan: settlementOf(m.run.job, m.claimed.event, m.result) }));
  const ops = made.map((m) => finishAttemptOp(m.claimed, m.run.token, m.plan.outcome));
  const saved = await dataTable.transact(ops).catch((err: unknown) => {
    logger.warn({ err }, 'webhook group outcome not recorded at once; recording job by job');
    return false;
  });
  await Promise.all(
    made.map(async (m) => {
      try {
        await (saved ? afterSettled(m.run.job, m.claimed.event, m.plan) : settle(m.run, m.claimed, m.result));
        m.run.done = true;
      } catch (err) {
        logger.error(
          { err, deliveryId: m.run.job.deliveryId },
          'webhook outcome not recorded; SQS will retry it',
        );
      }
    }),
  );
}

/**
 * The group job by job, in order: the next job is claimed while the current POST is under way (so
 * no claim waits longer than one POST), and each outcome is recorded while the next POST is under way.
 */
async function inOrderOneByOne(runs: JobRun[]): Promise<boolean[]> {
  const claim = (run: JobRun) =>
    claimJob(run).then(
      (value) => ({ ok: true as const, value }),
      (err: unknown) => ({ ok: false as const, err }),
    );
  const settling: Array<Promise<void>> = [];
  let next = runs[0] && claim(runs[0]);
  for (const [i, run] of runs.entries()) {
    const c = await must(next, `the claim of job ${i}`);
    const following = runs[i + 1];
    next = following && claim(following);
    if (!c.ok) {
      logger.error({ err: c.err, deliveryId: run.job.deliveryId }, 'webhook claim failed; SQS will retry it');
      continue;
    }
    if (!c.value) {
      run.done = true;
      continue;
    }
    const claimed = c.value;
    const result = await attempt(claimed, run.job.attempt);
    settling.push(
      settle(run, claimed, result).then(
        () => {
          run.done = true;
        },
        (err) => {
          logger.error(
            { err, deliveryId: run.job.deliveryId },
            'webhook outcome not recorded; SQS will retry it',
          );
        },
      ),
    );
  }
  await Promise.all(settling);
  return runs.map((r) => r.done);
}
