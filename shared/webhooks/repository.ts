import { randomUUID } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { deliveriesPks, deliveryIndexKeys, deliveryKey } from '../store/keys.ts';
import { mergeSorted } from '../store/shards.ts';
import { dataTable } from '../store/tables.ts';
import {
  type AttemptRecord,
  claimFields,
  type Delivery,
  type DeliveryStatus,
  type Outcome,
  outcomeFields,
  storedFrom,
} from './lifecycle.ts';

export {
  type AttemptRecord,
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryStatus,
} from './lifecycle.ts';

/**
 * The delivery records in the data table. Every write here is one step of `lifecycle.ts`, made
 * conditional on the statuses that step starts from, so the store refuses a step the table refuses.
 */

const RETENTION_DAYS = 30;

/**
 * A delivery's payload and attempt log are stored together as one brotli-compressed JSON attribute
 * (`packed`): nothing queries them, and a text message's record so stays under 1 KB, one write unit
 * for the item and one for its index entry instead of two each (docs/data-model.md). Records stored
 * before keep `body` and `attemptLog` as they are, and read as before.
 */
const pack = (body: string, attemptLog: AttemptRecord[]) =>
  brotliCompressSync(JSON.stringify([body, attemptLog]), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
  });

type Stored = Omit<Delivery, 'body' | 'attemptLog'> & {
  body?: string;
  attemptLog?: AttemptRecord[];
  packed?: Uint8Array;
};

/** The delivery an item holds (its payload and log unpacked). */
function fromStored(item: Stored): Delivery;
function fromStored(item: Stored | undefined): Delivery | undefined;
function fromStored(item: Stored | undefined): Delivery | undefined {
  if (!item?.packed) return item as Delivery | undefined;
  const { packed, ...rest } = item;
  const [body, attemptLog] = JSON.parse(brotliDecompressSync(packed).toString('utf8')) as [
    string,
    AttemptRecord[],
  ];
  return { ...rest, body, attemptLog };
}

/** The item of a delivery record (its key, its place in the tenant's delivery log, its expiry). */
export function deliveryItem(d: Delivery, createdAtMs: number) {
  const { body, attemptLog, ...rest } = d;
  return {
    ...deliveryKey(d.tenantId, d.id),
    ...deliveryIndexKeys(d.tenantId, d.sessionId, createdAtMs, d.id),
    type: 'webhook-delivery',
    expiresAt: Math.floor(createdAtMs / 1000) + RETENTION_DAYS * 86_400,
    ...rest,
    packed: pack(body, attemptLog),
  };
}

/** `create`: the pending record of a delivery just enqueued; false when one with this id exists. */
export async function createDelivery(d: Delivery, createdAtMs: number): Promise<boolean> {
  return dataTable.put(deliveryItem(d, createdAtMs), { ifAbsent: true });
}

export async function getDelivery(tenantId: string, id: string): Promise<Delivery | undefined> {
  return fromStored(await dataTable.get<Stored>(deliveryKey(tenantId, id), true));
}

/** Several deliveries of one tenant, strongly consistent, in the order of `ids`. */
export async function getDeliveries(tenantId: string, ids: string[]): Promise<Array<Delivery | undefined>> {
  const found = await dataTable.getMany<Stored>(ids.map((id) => deliveryKey(tenantId, id)));
  return found.map((d) => fromStored(d));
}

/** Attempt `attempt` of `round` of a delivery, taken with `token`. */
export interface ClaimRef {
  tenantId: string;
  id: string;
  round: number;
  attempt: number;
  token: string;
  /** `takeOver`: re-takes an attempt whose consumer died mid-flight (its claim token). */
  staleToken?: string;
}

/**
 * `claim` (or `takeOver`): takes the attempt for this consumer. Only one claim can succeed per
 * attempt number, which is what makes a repeated SQS message harmless.
 */
export async function claimAttempt(c: ClaimRef): Promise<Delivery | undefined> {
  const u = claimUpdate(c);
  return fromStored(await dataTable.update<Stored>(u.key, u.set, u.opt));
}

/** `claimAttempt` (a fresh claim) as one item of a transaction that claims several deliveries at once. */
export function claimAttemptOp(c: Omit<ClaimRef, 'staleToken'>) {
  const u = claimUpdate(c);
  return dataTable.updateOp(u.key, u.set, u.opt);
}

/** `#st IN (…)` over the stored statuses a step starts from, with its values. */
function fromStatuses(step: 'claim' | 'takeOver' | 'reopen') {
  const from = storedFrom(step);
  const values = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
  return { expression: `#st IN (${Object.keys(values).join(', ')})`, values };
}

function claimUpdate({ tenantId, id, round, attempt, token, staleToken }: ClaimRef) {
  const step = fromStatuses(staleToken ? 'takeOver' : 'claim');
  // A fresh claim follows the previous attempt; a take-over re-takes the same attempt.
  const condition = staleToken
    ? `#rd = :rd AND #at = :n AND ${step.expression} AND claimToken = :old`
    : `#rd = :rd AND #at = :prev AND ${step.expression}`;
  const values = staleToken
    ? { ':rd': round, ':n': attempt, ':old': staleToken, ...step.values }
    : { ':rd': round, ':prev': attempt - 1, ...step.values };
  return {
    key: deliveryKey(tenantId, id),
    set: claimFields(attempt, token, Date.now()),
    opt: { condition, names: { '#rd': 'round', '#at': 'attempts', '#st': 'status' }, values },
  };
}

/**
 * `claimNew`: claims the first attempt of a delivery whose record is not stored yet by creating the
 * record, already claimed (`sending`, attempt 1): only one creation can succeed, as only one claim can.
 */
export function claimNewOp(d: Delivery, createdAtMs: number) {
  return dataTable.putIfAbsentOp(deliveryItem(d, createdAtMs));
}

/** `claimNewOp` alone: the claimed record, or undefined when the record exists already. */
export async function claimNew(d: Delivery, createdAtMs: number): Promise<Delivery | undefined> {
  return (await dataTable.put(deliveryItem(d, createdAtMs), { ifAbsent: true })) ? d : undefined;
}

/** `outcome`: records the outcome of a claimed attempt (only the claim holder can). */
export async function finishAttempt(d: Delivery, token: string, o: Outcome): Promise<Delivery | undefined> {
  const f = finishUpdate(d, token, o);
  return fromStored(await dataTable.update<Stored>(f.key, f.set, f.opt));
}

/** `finishAttempt` as one item of a transaction that records several outcomes at once. */
export function finishAttemptOp(d: Delivery, token: string, o: Outcome) {
  const f = finishUpdate(d, token, o);
  return dataTable.updateOp(f.key, f.set, f.opt);
}

/**
 * The claim token stands for the `outcome` step's `sending`: only claimNew, claim and takeOver set a
 * token, and reopen replaces it. Not the status itself: an outcome recorded once whose answer was
 * lost (a transaction retried one by one) is recorded again, and its retry still queued.
 */
function finishUpdate(d: Delivery, token: string, o: Outcome) {
  const { attemptLog, ...fields } = outcomeFields(d, o);
  return {
    key: deliveryKey(d.tenantId, d.id),
    // The log is packed with the payload (the claimed delivery holds both); a record stored
    // before packing loses its plain copies.
    set: { ...fields, packed: pack(d.body, attemptLog) },
    opt: {
      condition: 'claimToken = :tok',
      values: { ':tok': token },
      remove: ['body', 'attemptLog'],
    },
  };
}

/**
 * `firstOutcome`: a new delivery whose first attempt was made unclaimed (the events consumer's,
 * right after storing its message) is created with that attempt's outcome, in one write, only if no
 * record exists (when one does, a queued attempt got there first and its outcome stands). False then.
 */
export function recordFirstOutcome(d: Delivery, createdAtMs: number): Promise<boolean> {
  return dataTable.put(deliveryItem(d, createdAtMs), { ifAbsent: true });
}

/** A delivery failed for good was put on the dead-letter queue (once: the resume path checks it). */
export async function markDeadLettered(tenantId: string, id: string): Promise<void> {
  await dataTable.update(deliveryKey(tenantId, id), { dlqAt: new Date().toISOString() });
}

/**
 * `reopen`: an undelivered delivery starts a new round of attempts: failed, pending, retrying, or
 * sending with a claim older than `staleBefore` (its consumer died mid-attempt). A fresh claim token
 * makes a late outcome of the old round's attempt miss (it is recorded only under its own token),
 * and the old round's queued job finds the round moved on and does nothing. Delivered, or an attempt
 * under way, is left alone (undefined).
 */
export async function reopenForRedelivery(
  tenantId: string,
  id: string,
  staleBefore: number,
): Promise<Delivery | undefined> {
  const now = new Date().toISOString();
  const step = fromStatuses('reopen');
  const reopened = await dataTable.update<Stored>(
    deliveryKey(tenantId, id),
    {
      status: 'pending' satisfies DeliveryStatus,
      attempts: 0,
      nextAttemptAt: null,
      dlqAt: null,
      claimToken: `reopened-${randomUUID()}`,
      updatedAt: now,
    },
    {
      // A `sending` delivery only once its claim is stale: an attempt under way is left to end.
      condition: `attribute_exists(pk) AND ${step.expression} AND (#st <> :sending OR claimedAt < :stale)`,
      names: { '#st': 'status' },
      values: { ...step.values, ':sending': 'sending', ':stale': staleBefore },
      add: { round: 1 },
    },
  );
  return fromStored(reopened);
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
  // Each shard's newest `limit`, merged: the newest `limit` of all are among them.
  const limit = opt.limit ?? 50;
  const shards = await Promise.all(
    deliveriesPks(tenantId, opt.sessionId).map((pk) =>
      dataTable.query<Stored & { gsi1sk: string }>({
        index: 'gsi1',
        pk,
        limit,
        filter: clauses.length ? { expression: clauses.join(' AND '), names, values } : undefined,
      }),
    ),
  );
  return mergeSorted(shards, (d) => d.gsi1sk, true)
    .slice(0, limit)
    .map((d) => fromStored(d));
}
