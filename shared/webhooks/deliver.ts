import { randomUUID } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { count } from '../metrics/metrics.ts';
import {
  guardedStatus,
  TargetNotAllowedError,
  TargetTimeoutError,
  TargetUnreachableError,
} from '../outbound/guard.ts';
import { TRANSACTION_MAX_ITEMS } from '../store/db.ts';
import { dataTable } from '../store/tables.ts';
import { backoffConfig, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from './backoff.ts';
import { hostOf, isApprovedHost } from './config.ts';
import {
  nextAttempt,
  POST_TIMEOUT_MS,
  STALE_CLAIM_MS,
  sendJob,
  sendToDeadLetter,
  type WebhookJob,
} from './job.ts';
import {
  type AttemptRecord,
  type Delivery,
  type DeliveryDraft,
  newDelivery,
  type Outcome,
} from './lifecycle.ts';
import {
  claimAttempt,
  claimAttemptOp,
  claimNew,
  claimNewOp,
  finishAttempt,
  finishAttemptOp,
  getDeliveries,
  getDelivery,
  markDeadLettered,
} from './repository.ts';
import { noteAnswer } from './slow-tenants.ts';
import { currentTarget, headersFor } from './target.ts';

const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  record: AttemptRecord;
  retryAfterMs?: number;
}

/** One job on its way through the webhooks consumer: claimed, POSTed, its outcome recorded. */
interface JobRun {
  job: WebhookJob;
  /** This consumer's claim token. */
  token: string;
  claimed?: Delivery;
  result?: AttemptResult;
  /** Handled: SQS may forget the job (false: it delivers it again). */
  done: boolean;
}

const runOf = (job: WebhookJob): JobRun => ({ job, token: randomUUID(), done: false });

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
  await settleAll(runs.flat().filter((r) => r.result));
  return runs.map((group) => group.map((r) => r.done));
}

/**
 * Claims every job in one transaction and reads them back (setting each run's `claimed`); 'no' when
 * that is not possible (no job claimed), 'again' when they were claimed but could not be read back
 * (SQS must deliver them again).
 */
async function claimAll(runs: JobRun[]): Promise<'ok' | 'again' | 'no'> {
  const tenant = runs[0]?.job.tenantId;
  const ids = runs.map((r) => `${r.job.tenantId}\0${r.job.deliveryId}`);
  if (runs.length < 2 || runs.length > TRANSACTION_MAX_ITEMS) return 'no';
  if (new Set(ids).size < ids.length) return 'no';
  // New deliveries' first attempts carry their payload: the claim's condition (no record yet) says
  // the record holds nothing else the POST and its outcome need, so nothing is read. Others are read
  // back, one tenant's at a time: a batch of several tenants goes job by job.
  const now = Date.now();
  const fresh = runs.map((r) => {
    const draft = r.job.createdAt !== undefined ? draftOf(r.job) : undefined;
    return draft && newDelivery(draft, r.job.createdAt!, { step: 'claimNew', token: r.token, nowMs: now });
  });
  const readBack = fresh.some((d) => d === undefined);
  if (readBack && runs.some((r) => r.job.tenantId !== tenant)) return 'no';
  try {
    const ops = runs.map((r, i) => {
      const d = fresh[i];
      return d
        ? claimNewOp(d, r.job.createdAt!)
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
      r.claimed = fresh[i];
    });
    return 'ok';
  }
  const found = await getDeliveries(
    tenant!,
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

/** Records every outcome in one transaction, then schedules retries and dead letters. */
async function settleAll(runs: JobRun[]): Promise<void> {
  const made = runs.map((r) => ({ run: r, claimed: r.claimed!, result: r.result! }));
  const plans = made.map((m) => settlementOf(m.run.job, m.claimed.event, m.result));
  const ops = made.map((m, i) => finishAttemptOp(m.claimed, m.run.token, plans[i]!.outcome));
  const saved = await dataTable.transact(ops).catch((err: unknown) => {
    logger.warn({ err }, 'webhook group outcome not recorded at once; recording job by job');
    return false;
  });
  await Promise.all(
    made.map(async (m, i) => {
      try {
        await (saved
          ? afterSettled(m.run.job, m.claimed.event, plans[i]!)
          : settle(m.run, m.claimed, m.result));
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
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    const c = await next!;
    next = runs[i + 1] && claim(runs[i + 1]!);
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

async function claimJob(run: JobRun): Promise<Delivery | undefined> {
  const { job, token } = run;
  // A record not written yet is created by the claim; when it exists (a repeated job, or the events
  // consumer's retry wrote it as pending), the usual claim decides.
  const draft = job.createdAt !== undefined ? draftOf(job) : undefined;
  const fresh = draft && newDelivery(draft, job.createdAt!, { step: 'claimNew', token, nowMs: Date.now() });
  return (
    (fresh ? await claimNew(fresh, job.createdAt!) : undefined) ??
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

/** What an attempt's result means for its delivery: the outcome to store and what follows. */
export interface Settlement {
  outcome: Outcome;
  /** For a retry: when the next attempt is due. */
  delayMs?: number;
  log: Record<string, unknown>;
}

export function settlementOf(job: WebhookJob, event: string, result: AttemptResult): Settlement {
  const { record, retryAfterMs } = result;
  const log = {
    tenantId: job.tenantId,
    deliveryId: job.deliveryId,
    event,
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
    return { outcome: { record: finalRecord, status: 'retrying', nextAttemptAt }, delayMs, log };
  }
  return { outcome: { record: finalRecord, status: final === 'delivered' ? 'delivered' : 'failed' }, log };
}

/** Records the outcome of an attempt: delivered, a retry scheduled, or failed for good. */
async function settle(run: JobRun, claimed: Delivery, result: AttemptResult): Promise<void> {
  const plan = settlementOf(run.job, claimed.event, result);
  const saved = await finishAttempt(claimed, run.token, plan.outcome);
  if (!saved) return logger.warn(plan.log, 'webhook claim lost; outcome not recorded');
  await afterSettled(run.job, claimed.event, plan);
}

/** Once the outcome is stored: queue the retry, or dead-letter a delivery that failed for good. */
export async function afterSettled(job: WebhookJob, event: string, plan: Settlement): Promise<void> {
  if (plan.outcome.status === 'retrying') {
    await sendJob(nextAttempt(job), plan.delayMs ?? 0);
    logger.info({ ...plan.log, retryInMs: plan.delayMs }, 'webhook attempt failed; retry scheduled');
    return;
  }
  if (plan.outcome.status === 'delivered') {
    logger.info(plan.log, 'webhook delivered');
    return;
  }
  await deadLetter(job, event, plan.outcome.record.error ?? 'failed');
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

/** What a POST needs of its delivery. */
type Sendable = Pick<Delivery, 'id' | 'tenantId' | 'sessionId' | 'event' | 'body'> & { round?: number };

/** One POST with the configuration as it is now (a fixed URL or rotated secret applies to retries). */
export async function attempt(d: Sendable, n: number): Promise<AttemptResult> {
  const result = await post(d, n);
  if (result.record.url !== null) {
    count('webhookAttempts');
    noteAnswer(d.tenantId, result.record.durationMs);
  }
  count(result.record.outcome === 'delivered' ? 'webhookDelivered' : 'webhookFailures');
  return result;
}

async function post(d: Sendable, n: number): Promise<AttemptResult> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  const base = { round: d.round ?? 0, attempt: n, at };
  const done = (
    outcome: AttemptRecord['outcome'],
    url: string | null,
    statusCode: number | null,
    error: string | null,
  ) => ({
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
