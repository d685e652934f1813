import { randomUUID } from 'node:crypto';
import { deliveriesPk, deliveryIndexKeys, deliveryKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

export const DELIVERY_STATUSES = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface AttemptRecord {
  round: number;
  attempt: number;
  at: string;
  url: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  outcome: 'delivered' | 'retry' | 'failed';
}

/** One event to one tenant's webhook, with every attempt made for it. */
export interface Delivery {
  id: string;
  tenantId: string;
  sessionId: string;
  event: string;
  /** The exact JSON sent (and signed) on every attempt. */
  body: string;
  status: DeliveryStatus;
  /** 0 for the original delivery, +1 for each redelivery; each round has its own attempts. */
  round: number;
  /** Attempts started in this round. */
  attempts: number;
  url: string | null;
  lastStatusCode?: number | null;
  lastError?: string | null;
  nextAttemptAt?: string | null;
  claimToken?: string;
  claimedAt?: number;
  attemptLog: AttemptRecord[];
  createdAt: string;
  updatedAt: string;
  deliveredAt?: string | null;
  failedAt?: string | null;
  dlqAt?: string | null;
}

const RETENTION_DAYS = 30;
const LOG_LIMIT = 50;

/** Creates the record; false when a delivery with this id exists already. */
export async function createDelivery(d: Delivery, createdAtMs: number): Promise<boolean> {
  return dataTable.put(deliveryItem(d, createdAtMs), { ifAbsent: true });
}

/** The item `createDelivery` writes (for writes that batch several items in one transaction). */
export function deliveryItem(d: Delivery, createdAtMs: number) {
  return {
    ...deliveryKey(d.tenantId, d.id),
    ...deliveryIndexKeys(d.tenantId, createdAtMs, d.id),
    type: 'webhook-delivery',
    expiresAt: Math.floor(createdAtMs / 1000) + RETENTION_DAYS * 86_400,
    ...d,
  };
}

export async function getDelivery(tenantId: string, id: string): Promise<Delivery | undefined> {
  return dataTable.get<Delivery>(deliveryKey(tenantId, id), true);
}

/** Attempt `attempt` of `round` of a delivery, taken with `token`. */
export interface ClaimRef {
  tenantId: string;
  id: string;
  round: number;
  attempt: number;
  token: string;
  /** Re-takes an attempt whose consumer died mid-flight (its claim token). */
  staleToken?: string;
}

/**
 * Takes the attempt for this consumer: only one claim can succeed per attempt number, which is
 * what makes a repeated SQS message harmless.
 */
export async function claimAttempt(c: ClaimRef): Promise<Delivery | undefined> {
  const u = claimUpdate(c);
  return dataTable.update<Delivery>(u.key, u.set, u.opt);
}

/** `claimAttempt` (a fresh claim) as one item of a transaction that claims several deliveries at once. */
export function claimAttemptOp(c: Omit<ClaimRef, 'staleToken'>) {
  const u = claimUpdate(c);
  return dataTable.updateOp(u.key, u.set, u.opt);
}

function claimUpdate({ tenantId, id, round, attempt, token, staleToken }: ClaimRef) {
  const now = Date.now();
  const condition = staleToken
    ? '#rd = :rd AND #at = :n AND #st = :sending AND claimToken = :old'
    : '#rd = :rd AND #at = :prev AND (#st = :pending OR #st = :retrying)';
  const values = staleToken
    ? { ':rd': round, ':n': attempt, ':sending': 'sending', ':old': staleToken }
    : { ':rd': round, ':prev': attempt - 1, ':pending': 'pending', ':retrying': 'retrying' };
  return {
    key: deliveryKey(tenantId, id),
    set: {
      status: 'sending',
      attempts: attempt,
      claimToken: token,
      claimedAt: now,
      updatedAt: new Date(now).toISOString(),
    },
    opt: { condition, names: { '#rd': 'round', '#at': 'attempts', '#st': 'status' }, values },
  };
}

/**
 * Claims the first attempt of a delivery whose record is not stored yet by creating the record,
 * already claimed (`sending`, attempt 1): only one creation can succeed, as only one claim can.
 */
export function claimNewOp(d: Delivery, createdAtMs: number, token: string) {
  return dataTable.putIfAbsentOp(deliveryItem(claimedNew(d, token), createdAtMs));
}

/** `claimNewOp` alone: the claimed record, or undefined when the record exists already. */
export async function claimNew(
  d: Delivery,
  createdAtMs: number,
  token: string,
): Promise<Delivery | undefined> {
  const claimed = claimedNew(d, token);
  return (await dataTable.put(deliveryItem(claimed, createdAtMs), { ifAbsent: true })) ? claimed : undefined;
}

function claimedNew(d: Delivery, token: string): Delivery {
  const now = Date.now();
  return {
    ...d,
    status: 'sending',
    attempts: 1,
    claimToken: token,
    claimedAt: now,
    updatedAt: new Date(now).toISOString(),
  };
}

/** Several deliveries of one tenant, strongly consistent, in the order of `ids`. */
export function getDeliveries(tenantId: string, ids: string[]): Promise<Array<Delivery | undefined>> {
  return dataTable.getMany<Delivery>(ids.map((id) => deliveryKey(tenantId, id)));
}

export interface AttemptNext {
  status: Exclude<DeliveryStatus, 'sending' | 'pending'>;
  nextAttemptAt?: string | null;
}

/** Records the outcome of a claimed attempt (only the claim holder can). */
export async function finishAttempt(
  d: Delivery,
  token: string,
  result: AttemptRecord,
  next: AttemptNext,
): Promise<Delivery | undefined> {
  const f = finishUpdate(d, token, result, next);
  return dataTable.update<Delivery>(f.key, f.set, f.opt);
}

/** `finishAttempt` as one item of a transaction that records several outcomes at once. */
export function finishAttemptOp(d: Delivery, token: string, result: AttemptRecord, next: AttemptNext) {
  const f = finishUpdate(d, token, result, next);
  return dataTable.updateOp(f.key, f.set, f.opt);
}

function finishUpdate(d: Delivery, token: string, result: AttemptRecord, next: AttemptNext) {
  return {
    key: deliveryKey(d.tenantId, d.id),
    set: outcomeFields(d, result, next),
    opt: { condition: 'claimToken = :tok', values: { ':tok': token } },
  };
}

/** What an attempt's outcome sets on its delivery. */
function outcomeFields(d: Delivery, result: AttemptRecord, next: AttemptNext) {
  const at = result.at;
  return {
    status: next.status,
    attemptLog: [...(d.attemptLog ?? []), result].slice(-LOG_LIMIT),
    url: result.url,
    lastStatusCode: result.statusCode,
    lastError: result.error,
    nextAttemptAt: next.nextAttemptAt ?? null,
    deliveredAt: next.status === 'delivered' ? at : undefined,
    failedAt: next.status === 'failed' ? at : undefined,
    updatedAt: at,
  };
}

/**
 * A new delivery whose first attempt was made unclaimed (the events consumer's, right after storing
 * its message): the record is created with that attempt's outcome, only if no record exists (when
 * one does, a queued attempt got there first and its outcome stands).
 */
export function firstOutcomeOp(d: Delivery, createdAtMs: number, result: AttemptRecord, next: AttemptNext) {
  return dataTable.putIfAbsentOp(firstOutcomeItem(d, createdAtMs, result, next));
}

/** `firstOutcomeOp` alone; false when the record exists already. */
export function recordFirstOutcome(
  d: Delivery,
  createdAtMs: number,
  result: AttemptRecord,
  next: AttemptNext,
): Promise<boolean> {
  return dataTable.put(firstOutcomeItem(d, createdAtMs, result, next), { ifAbsent: true });
}

function firstOutcomeItem(d: Delivery, createdAtMs: number, result: AttemptRecord, next: AttemptNext) {
  return deliveryItem({ ...d, attempts: 1, ...outcomeFields(d, result, next) }, createdAtMs);
}

export async function markDeadLettered(tenantId: string, id: string): Promise<void> {
  await dataTable.update(deliveryKey(tenantId, id), { dlqAt: new Date().toISOString() });
}

/**
 * An undelivered delivery starts a new round of attempts: failed, pending, retrying, or sending
 * with a claim older than `staleBefore` (its consumer died mid-attempt). A fresh claim token makes a
 * late outcome of the old round's attempt miss (it is recorded only under its own token), and the
 * old round's queued job finds the round moved on and does nothing. Delivered, or an attempt under
 * way, is left alone (undefined).
 */
export async function reopenForRedelivery(
  tenantId: string,
  id: string,
  staleBefore: number,
): Promise<Delivery | undefined> {
  const now = new Date().toISOString();
  return dataTable.update<Delivery>(
    deliveryKey(tenantId, id),
    {
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      dlqAt: null,
      claimToken: `reopened-${randomUUID()}`,
      updatedAt: now,
    },
    {
      condition:
        'attribute_exists(pk) AND (#st IN (:failed, :pending, :retrying) OR (#st = :sending AND claimedAt < :stale))',
      names: { '#st': 'status' },
      values: {
        ':failed': 'failed',
        ':pending': 'pending',
        ':retrying': 'retrying',
        ':sending': 'sending',
        ':stale': staleBefore,
      },
      add: { round: 1 },
    },
  );
}

/** Newest first; optionally only one status or one session. */
export async function listDeliveries(
  tenantId: string,
  opt: { status?: DeliveryStatus; sessionId?: string; event?: string; limit?: number } = {},
): Promise<Delivery[]> {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (opt.status) {
    clauses.push('#st = :st');
    names['#st'] = 'status';
    values[':st'] = opt.status;
  }
  if (opt.sessionId) {
    clauses.push('sessionId = :sid');
    values[':sid'] = opt.sessionId;
  }
  if (opt.event) {
    clauses.push('#ev = :ev');
    names['#ev'] = 'event';
    values[':ev'] = opt.event;
  }
  return dataTable.query<Delivery>({
    index: 'gsi1',
    pk: deliveriesPk(tenantId),
    limit: opt.limit ?? 50,
    filter: clauses.length ? { expression: clauses.join(' AND '), names, values } : undefined,
  });
}
