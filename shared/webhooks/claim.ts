import { randomUUID } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { TRANSACTION_MAX_ITEMS } from '../store/db.ts';
import { dataTable } from '../store/tables.ts';
import type { AttemptResult } from './attempt.ts';
import { nextAttempt, STALE_CLAIM_MS, sendJob, type WebhookJob } from './job.ts';
import { type Delivery, type DeliveryDraft, newDelivery } from './lifecycle.ts';
import {
  claimAttempt,
  claimAttemptOp,
  claimNew,
  claimNewOp,
  getDeliveries,
  getDelivery,
} from './repository.ts';
import { deadLetter } from './settlement.ts';

/*
 * Claiming webhook jobs so each attempt is made at most once: one job (creating a new delivery's
 * record, or taking over a stale claim), or a whole group in one transaction.
 */

/** One job on its way through the webhooks consumer: claimed, POSTed, its outcome recorded. */
export interface JobRun {
  job: WebhookJob;
  /** This consumer's claim token. */
  token: string;
  claimed?: Delivery;
  result?: AttemptResult;
  /** Handled: SQS may forget the job (false: it delivers it again). */
  done: boolean;
}

export const runOf = (job: WebhookJob): JobRun => ({ job, token: randomUUID(), done: false });

/**
 * Claims every job in one transaction and reads them back (setting each run's `claimed`); 'no' when
 * that is not possible (no job claimed), 'again' when they were claimed but could not be read back
 * (SQS must deliver them again).
 */
export async function claimAll(runs: JobRun[]): Promise<'ok' | 'again' | 'no'> {
  const tenant = runs[0]?.job.tenantId;
  const ids = runs.map((r) => `${r.job.tenantId}\0${r.job.deliveryId}`);
  if (tenant === undefined || runs.length < 2 || runs.length > TRANSACTION_MAX_ITEMS) return 'no';
  if (new Set(ids).size < ids.length) return 'no';
  // New deliveries' first attempts carry their payload: the claim's condition (no record yet) says
  // the record holds nothing else the POST and its outcome need, so nothing is read. Others are read
  // back, one tenant's at a time: a batch of several tenants goes job by job.
  const now = Date.now();
  const fresh = runs.map((r) => {
    const n = newDraftOf(r.job);
    return (
      n && {
        createdAt: n.createdAt,
        delivery: newDelivery(n.draft, n.createdAt, { step: 'claimNew', token: r.token, nowMs: now }),
      }
    );
  });
  const readBack = fresh.some((d) => d === undefined);
  if (readBack && runs.some((r) => r.job.tenantId !== tenant)) return 'no';
  try {
    const ops = runs.map((r, i) => {
      const d = fresh[i];
      return d
        ? claimNewOp(d.delivery, d.createdAt)
        : claimAttemptOp({
            tenantId: r.job.tenantId,
            id: r.job.deliveryId,
            round: r.job.round,
            attempt: r.job.attempt,
            token: r.token,
          });
    });
    if (!(await dataTable.transact(ops))) return 'no';
  } catch (err) {
    logger.warn({ err, ids }, 'webhook group claim failed; claiming job by job');
    return 'no';
  }
  if (!readBack) {
    runs.forEach((r, i) => {
      r.claimed = fresh[i]?.delivery;
    });
    return 'ok';
  }
  const found = await getDeliveries(
    tenant,
    runs.map((r) => r.job.deliveryId),
  ).catch((err: unknown) => {
    logger.error({ err, ids }, 'webhook group claimed but not read back; SQS will retry it');
    return undefined;
  });
  // Ours now (the token says so); one not read back is left to the stale-claim path of its retry.
  if (!found || found.some((d, i) => d?.claimToken !== runs[i]?.token)) {
    if (found) logger.error({ ids }, 'webhook group claimed but not read back; SQS will retry it');
    return 'again';
  }
  runs.forEach((r, i) => {
    r.claimed = found[i];
  });
  return 'ok';
}

/**
 * A new delivery's first attempt that carries its payload, and when the delivery was made: what a
 * claim that creates the delivery's record needs (undefined for any other job).
 */
export function newDraftOf(job: WebhookJob): { draft: DeliveryDraft; createdAt: number } | undefined {
  const { createdAt } = job;
  if (createdAt === undefined) return undefined;
  const draft = draftOf(job);
  return draft && { draft, createdAt };
}

/**
 * What a new delivery's first attempt carries of its delivery (undefined when it carries no payload,
 * or is not that attempt): all its POST and its record need.
 */
export function draftOf(job: WebhookJob): DeliveryDraft | undefined {
  if (job.body === undefined || job.event === undefined || job.round !== 0 || job.attempt !== 1)
    return undefined;
  if (!job.sessionId) return undefined;
  return {
    id: job.deliveryId,
    tenantId: job.tenantId,
    sessionId: job.sessionId,
    event: job.event,
    body: job.body,
  };
}

export async function claimJob(run: JobRun): Promise<Delivery | undefined> {
  const { job, token } = run;
  // A record not written yet is created by the claim; when it exists (a repeated job, or the events
  // consumer's retry wrote it as pending), the usual claim decides.
  const fresh = newDraftOf(job);
  return (
    (fresh
      ? await claimNew(
          newDelivery(fresh.draft, fresh.createdAt, { step: 'claimNew', token, nowMs: Date.now() }),
          fresh.createdAt,
        )
      : undefined) ??
    (await claimAttempt({
      tenantId: job.tenantId,
      id: job.deliveryId,
      round: job.round,
      attempt: job.attempt,
      token,
    })) ??
    (await resumeOrSkip(job, token))
  );
}

/**
 * The claim failed: a repeated SQS message, a message from an older round, or a retry whose
 * previous consumer stopped half-way. Finish that consumer's work where it is safe to.
 */
async function resumeOrSkip(job: WebhookJob, token: string): Promise<Delivery | undefined> {
  const d = await getDelivery(job.tenantId, job.deliveryId);
  if (!d || d.round !== job.round || d.attempts !== job.attempt) return undefined;
  if (d.status === 'sending' && d.claimedAt !== undefined && Date.now() - d.claimedAt > STALE_CLAIM_MS) {
    return claimAttempt({
      tenantId: job.tenantId,
      id: job.deliveryId,
      round: job.round,
      attempt: job.attempt,
      token,
      staleToken: d.claimToken,
    });
  }
  if (d.status === 'retrying') {
    // The next attempt may never have been queued; a duplicate is dropped by its claim.
    const due = d.nextAttemptAt ? Date.parse(d.nextAttemptAt) - Date.now() : 0;
    await sendJob(nextAttempt(job), Math.max(0, due));
  } else if (d.status === 'failed' && !d.dlqAt) {
    await deadLetter(job, d.event, d.lastError ?? 'failed');
  }
  return undefined;
}
