import { randomUUID } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { count } from '../metrics/metrics.ts';
import { TRANSACTION_MAX_ITEMS } from '../store/db.ts';
import { dataTable } from '../store/tables.ts';
import { backoffConfig, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './backoff.ts';
import { hostOf, isApprovedHost } from './config.ts';
import { guardedStatus, TargetNotAllowedError, TargetTimeoutError, TargetUnreachableError } from './guard.ts';
import {
  nextAttempt,
  POST_TIMEOUT_MS,
  STALE_CLAIM_MS,
  sendJob,
  sendToDeadLetter,
  type WebhookJob,
} from './job.ts';
import {
  type AttemptNext,
  type AttemptRecord,
  claimAttempt,
  claimAttemptOp,
  claimNew,
  claimNewOp,
  type Delivery,
  finishAttempt,
  finishAttemptOp,
  getDeliveries,
  getDelivery,
  markDeadLettered,
} from './repository.ts';
import { noteAnswer } from './slow-tenants.ts';
import { currentTarget, headersFor } from './target.ts';

const MAX_RESPONSE_BYTES = 64 * 1024;

type Outcome = AttemptRecord['outcome'];
export interface AttemptResult {
  record: AttemptRecord;
  retryAfterMs?: number;
}

/** Runs attempt `job.attempt` of a delivery at most once, then schedules the next one or gives up. */
export async function processWebhookJob(job: WebhookJob): Promise<void> {
  const token = randomUUID();
  const claimed = await claimJob(job, token);
  if (!claimed) return;
  await settle(job, claimed, token, await attempt(claimed, job.attempt));
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
  const jobs = groups.flat();
  const tokens = jobs.map(() => randomUUID());
  const starts = groups.map((_, g) => groups.slice(0, g).reduce((n, x) => n + x.length, 0));
  const claimedAt = Date.now();
  const claimed = await claimAll(jobs, tokens);
  // Claimed but not read back: the jobs go back to SQS, whose redelivery takes the claims over once
  // they are stale (job by job here would find them claimed and drop them).
  if (claimed === 'again') return groups.map((group) => group.map(() => false));
  if (!claimed) {
    return Promise.all(
      groups.map((group, g) => inOrderOneByOne(group, tokens.slice(starts[g], starts[g]! + group.length))),
    );
  }
  const results: Array<AttemptResult | undefined> = jobs.map(() => undefined);
  await Promise.all(
    groups.map(async (group, g) => {
      // Slow receivers: a claim must not grow stale before its POST (another consumer could then
      // take it), so the jobs not started by half the stale age are left to SQS; their claims expire.
      for (let i = starts[g]!; i < starts[g]! + group.length; i++) {
        if (Date.now() - claimedAt >= STALE_CLAIM_MS / 2) break;
        results[i] = await attempt(claimed[i]!, jobs[i]!.attempt);
      }
    }),
  );
  const made = jobs.flatMap((_, i) => (results[i] ? [i] : []));
  const settled = await settleAll(
    made.map((i) => jobs[i]!),
    made.map((i) => claimed[i]!),
    made.map((i) => tokens[i]!),
    made.map((i) => results[i]!),
  );
  const done: boolean[] = jobs.map(() => false);
  made.forEach((i, n) => {
    done[i] = settled[n]!;
  });
  return groups.map((group, g) => done.slice(starts[g], starts[g]! + group.length));
}

/**
 * Claims every job in one transaction and reads them back; undefined when that is not possible (no
 * job claimed), 'again' when they were claimed but could not be read back (SQS must deliver them
 * again).
 */
async function claimAll(jobs: WebhookJob[], tokens: string[]): Promise<Delivery[] | 'again' | undefined> {
  const tenant = jobs[0]?.tenantId;
  const ids = jobs.map((j) => `${j.tenantId}\0${j.deliveryId}`);
  if (jobs.length < 2 || jobs.length > TRANSACTION_MAX_ITEMS) return undefined;
  if (new Set(ids).size < ids.length) return undefined;
  // New deliveries' first attempts carry their payload: the claim's condition (round 0, no attempt
  // made) says the record holds nothing else the POST and its outcome need, so nothing is read.
  // Others are read back, one tenant's at a time: a batch of several tenants goes job by job.
  const known = jobs.map(carried);
  const readBack = known.some((d) => d === undefined);
  if (readBack && jobs.some((j) => j.tenantId !== tenant)) return undefined;
  try {
    const ops = jobs.map((j, i) =>
      j.createdAt !== undefined && known[i]
        ? claimNewOp(known[i], j.createdAt, tokens[i]!)
        : claimAttemptOp({
            tenantId: j.tenantId,
            id: j.deliveryId,
            round: j.round,
            attempt: j.attempt,
            token: tokens[i]!,
          }),
    );
    if (!(await dataTable.transact(ops))) return undefined;
  } catch (err) {
    logger.warn({ err, ids }, 'webhook group claim failed; claiming job by job');
    return undefined;
  }
  if (!readBack) return known.map((d, i) => ({ ...d!, claimToken: tokens[i] }));
  const found = await getDeliveries(
    tenant!,
    jobs.map((j) => j.deliveryId),
  ).catch((err: unknown) => {
    logger.error({ err, ids }, 'webhook group claimed but not read back; SQS will retry it');
    return undefined;
  });
  // Ours now (the token says so); one not read back is left to the stale-claim path of its retry.
  if (!found || found.some((d, i) => d?.claimToken !== tokens[i])) {
    if (found) logger.error({ ids }, 'webhook group claimed but not read back; SQS will retry it');
    return 'again';
  }
  return found as Delivery[];
}

/**
 * The claimed record of a new delivery's first attempt, from what its job carries (undefined when
 * it carries no payload, or is not that attempt). Its claim held only if the record is in round 0
 * with no attempt made, so its attempt log is empty.
 */
export function carried(job: WebhookJob): Delivery | undefined {
  if (job.body === undefined || job.event === undefined || job.round !== 0 || job.attempt !== 1)
    return undefined;
  if (!job.sessionId) return undefined;
  const now = new Date(job.createdAt ?? Date.now()).toISOString();
  return {
    id: job.deliveryId,
    tenantId: job.tenantId,
    sessionId: job.sessionId,
    event: job.event,
    body: job.body,
    status: 'sending',
    round: 0,
    attempts: 1,
    url: null,
    attemptLog: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** Records every outcome in one transaction, then schedules retries and dead letters. */
async function settleAll(
  jobs: WebhookJob[],
  claimed: Delivery[],
  tokens: string[],
  results: AttemptResult[],
): Promise<boolean[]> {
  const plans = jobs.map((job, i) => settlementOf(job, claimed[i]!, results[i]!));
  const ops = plans.map((p, i) => finishAttemptOp(claimed[i]!, tokens[i]!, p.record, p.next));
  const saved = await dataTable.transact(ops).catch((err: unknown) => {
    logger.warn({ err }, 'webhook group outcome not recorded at once; recording job by job');
    return false;
  });
  return Promise.all(
    jobs.map((job, i) =>
      (saved
        ? afterSettled(job, claimed[i]!, plans[i]!)
        : settle(job, claimed[i]!, tokens[i]!, results[i]!)
      ).then(
        () => true,
        (err: unknown) => {
          logger.error(
            { err, deliveryId: job.deliveryId },
            'webhook outcome not recorded; SQS will retry it',
          );
          return false;
        },
      ),
    ),
  );
}

/**
 * The group job by job, in order: the next job is claimed while the current POST is under way (so
 * no claim waits longer than one POST), and each outcome is recorded while the next POST is under way.
 */
async function inOrderOneByOne(jobs: WebhookJob[], tokens: string[]): Promise<boolean[]> {
  const claim = (i: number) =>
    claimJob(jobs[i]!, tokens[i]!).then(
      (value) => ({ ok: true as const, value }),
      (err: unknown) => ({ ok: false as const, err }),
    );
  const settled: Array<Promise<boolean>> = [];
  let next = jobs.length ? claim(0) : undefined;
  for (let i = 0; i < jobs.length; i++) {
    const c = await next!;
    next = i + 1 < jobs.length ? claim(i + 1) : undefined;
    const job = jobs[i]!;
    if (!c.ok) {
      logger.error({ err: c.err, deliveryId: job.deliveryId }, 'webhook claim failed; SQS will retry it');
      settled.push(Promise.resolve(false));
      continue;
    }
    if (!c.value) {
      settled.push(Promise.resolve(true));
      continue;
    }
    const claimed = c.value;
    const result = await attempt(claimed, job.attempt);
    settled.push(
      settle(job, claimed, tokens[i]!, result).then(
        () => true,
        (err) => {
          logger.error(
            { err, deliveryId: job.deliveryId },
            'webhook outcome not recorded; SQS will retry it',
          );
          return false;
        },
      ),
    );
  }
  return Promise.all(settled);
}

async function claimJob(job: WebhookJob, token: string): Promise<Delivery | undefined> {
  // A record not written yet is created by the claim; when it exists (a repeated job, or the events
  // consumer's retry wrote it as pending), the usual claim decides.
  const unwritten = job.createdAt !== undefined ? carried(job) : undefined;
  return (
    (unwritten ? await claimNew(unwritten, job.createdAt!, token) : undefined) ??
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

/** What an attempt's result means for its delivery: the record to store and what follows. */
export interface Settlement {
  record: AttemptRecord;
  next: AttemptNext;
  /** For a retry: when the next attempt is due. */
  delayMs?: number;
  log: Record<string, unknown>;
}

export function settlementOf(job: WebhookJob, claimed: Delivery, result: AttemptResult): Settlement {
  const { record, retryAfterMs } = result;
  const log = {
    tenantId: job.tenantId,
    deliveryId: job.deliveryId,
    event: claimed.event,
    round: job.round,
    attempt: job.attempt,
    statusCode: record.statusCode,
    error: record.error,
    durationMs: record.durationMs,
  };
  const final = record.outcome === 'retry' && job.attempt >= MAX_ATTEMPTS ? 'failed' : record.outcome;
  const finalRecord = { ...record, outcome: final };
  if (final === 'retry') {
    const delayMs = retryDelayMs(job.attempt, backoffConfig(), retryAfterMs);
    const nextAttemptAt = new Date(Date.now() + delayMs).toISOString();
    return { record: finalRecord, next: { status: 'retrying', nextAttemptAt }, delayMs, log };
  }
  return { record: finalRecord, next: { status: final === 'delivered' ? 'delivered' : 'failed' }, log };
}

/** Records the outcome of an attempt: delivered, a retry scheduled, or failed for good. */
async function settle(
  job: WebhookJob,
  claimed: Delivery,
  token: string,
  result: AttemptResult,
): Promise<void> {
  const plan = settlementOf(job, claimed, result);
  const saved = await finishAttempt(claimed, token, plan.record, plan.next);
  if (!saved) return logger.warn(plan.log, 'webhook claim lost; outcome not recorded');
  await afterSettled(job, claimed, plan);
}

/** Once the outcome is stored: queue the retry, or dead-letter a delivery that failed for good. */
export async function afterSettled(job: WebhookJob, claimed: Delivery, plan: Settlement): Promise<void> {
  if (plan.next.status === 'retrying') {
    await sendJob(nextAttempt(job), plan.delayMs ?? 0);
    logger.info({ ...plan.log, retryInMs: plan.delayMs }, 'webhook attempt failed; retry scheduled');
    return;
  }
  if (plan.next.status === 'delivered') {
    logger.info(plan.log, 'webhook delivered');
    return;
  }
  await deadLetter(job, claimed.event, plan.record.error ?? 'failed');
  logger.warn(plan.log, 'webhook failed for good; sent to the dead-letter queue');
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

async function deadLetter(job: WebhookJob, event: string, reason: string): Promise<void> {
  await sendToDeadLetter({ ...job, event, reason });
  await markDeadLettered(job.tenantId, job.deliveryId);
}

/** One POST with the configuration as it is now (a fixed URL or rotated secret applies to retries). */
export async function attempt(d: Delivery, n: number): Promise<AttemptResult> {
  const result = await post(d, n);
  if (result.record.url !== null) {
    count('webhookAttempts');
    noteAnswer(d.tenantId, result.record.durationMs);
  }
  count(result.record.outcome === 'delivered' ? 'webhookDelivered' : 'webhookFailures');
  return result;
}

async function post(d: Delivery, n: number): Promise<AttemptResult> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  const base = { round: d.round, attempt: n, at };
  const done = (outcome: Outcome, url: string | null, statusCode: number | null, error: string | null) => ({
    ...base,
    url,
    statusCode,
    error,
    outcome,
    durationMs: Math.round(performance.now() - t0),
  });

  const cfg = await currentTarget(d.tenantId, d.sessionId, d.event);
  if (!cfg.enabled || !cfg.webhookUrl) {
    return { record: done('failed', null, null, 'webhook disabled or no URL configured') };
  }
  const url = cfg.webhookUrl;
  if (!isApprovedHost(hostOf(url), cfg.approvedDomains)) {
    return { record: done('failed', url, null, `host ${hostOf(url)} is not an approved domain`) };
  }
  const headers = headersFor(cfg, { deliveryId: d.id, event: d.event, attempt: n, body: d.body });
  try {
    // The answer is read to the end (at most MAX_RESPONSE_BYTES): a fully read answer leaves its
    // connection free for the next delivery, a cancelled one closes it.
    const res = await guardedStatus(
      url,
      { method: 'POST', headers, body: d.body },
      { timeoutMs: POST_TIMEOUT_MS, maxBytes: MAX_RESPONSE_BYTES },
    );
    const s = res.status;
    if (s >= 200 && s < 300) return { record: done('delivered', url, s, null) };
    const retryable = s >= 500 || s === 429;
    const error = s >= 300 && s < 400 ? `HTTP ${s} (redirects are not followed)` : `HTTP ${s}`;
    return {
      record: done(retryable ? 'retry' : 'failed', url, s, error),
      retryAfterMs: retryable ? parseRetryAfter(res.headers['retry-after'] ?? null) : undefined,
    };
  } catch (err) {
    if (err instanceof TargetNotAllowedError) return { record: done('failed', url, null, err.message) };
    const e = (err instanceof TargetUnreachableError ? err.cause : err) as NodeJS.ErrnoException;
    const error =
      err instanceof TargetTimeoutError ? `timeout after ${POST_TIMEOUT_MS} ms` : (e.code ?? e.message);
    return { record: done('retry', url, null, String(error).slice(0, 200)) };
  }
}
