/**
 * A webhook delivery's life, written once: its states, the steps between them, and the one place a
 * delivery record is made. The repository builds its write conditions from this table (so a store
 * write can only make a step the table allows), and every module that moves a delivery on names the
 * step it makes. docs/events.md, "Delivery", tells the story; `lifecycle.test.ts` reads as its spec.
 *
 *   (none) ─create─▶ pending ─claim─▶ sending ─delivered─▶ delivered
 *   (none) ─claimNew─▶ sending         │      ─retry────▶ retrying ─claim─▶ sending …
 *   (none) ─firstOutcome─▶ delivered | retrying | failed   ─fail─▶ failed (dead-lettered once)
 *   failed | pending | retrying | sending (stale) ─reopen─▶ pending (next round)
 *   sending (stale claim) ─takeOver─▶ sending
 */

export const DELIVERY_STATUSES = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Before the record exists. */
export const NONE = 'none';
type From = DeliveryStatus | typeof NONE;

/** The statuses an attempt's outcome leads to. */
export type OutcomeStatus = 'delivered' | 'retrying' | 'failed';

export const STEPS = {
  /** Enqueued; its first attempt's job goes to the queue. */
  create: { from: [NONE], to: ['pending'] },
  /** The first attempt's job carried the payload: its claim makes the record, already claimed. */
  claimNew: { from: [NONE], to: ['sending'] },
  /** The first attempt was made before any record (the events consumer's): made with its outcome. */
  firstOutcome: { from: [NONE], to: ['delivered', 'retrying', 'failed'] },
  /** A consumer takes the next attempt; only one claim per attempt number succeeds. */
  claim: { from: ['pending', 'retrying'], to: ['sending'] },
  /** A claim whose consumer died mid-POST (older than STALE_CLAIM_MS) is taken by another. */
  takeOver: { from: ['sending'], to: ['sending'] },
  /** The claimed attempt ended: answered 2xx, a retry scheduled, or failed for good. */
  outcome: { from: ['sending'], to: ['delivered', 'retrying', 'failed'] },
  /** Redelivery (the API): a new round of attempts for anything not delivered nor under way. */
  reopen: { from: ['failed', 'pending', 'retrying', 'sending'], to: ['pending'] },
} as const satisfies Record<string, { from: readonly From[]; to: readonly DeliveryStatus[] }>;

export type Step = keyof typeof STEPS;

/** Whether `step` may take a delivery from `from` to `to`. */
export function allowed(step: Step, from: From, to: DeliveryStatus): boolean {
  const s: { from: readonly From[]; to: readonly DeliveryStatus[] } = STEPS[step];
  return s.from.includes(from) && s.to.includes(to);
}

/** The status a step leads to from `from`; throws for a step the table refuses. */
export function next(step: Step, from: From, to?: DeliveryStatus): DeliveryStatus {
  const target = to ?? STEPS[step].to[0];
  if (!allowed(step, from, target)) throw new DeliveryStepError(step, from, target);
  return target;
}

export class DeliveryStepError extends Error {
  constructor(
    readonly step: Step,
    readonly from: From,
    readonly to: DeliveryStatus,
  ) {
    super(`webhook delivery: ${step} does not lead from ${from} to ${to}`);
    this.name = 'DeliveryStepError';
  }
}

/** Statuses a step starts from that are stored statuses (for the store's conditions). */
export const storedFrom = (step: Step): DeliveryStatus[] =>
  (STEPS[step].from as readonly From[]).filter((s): s is DeliveryStatus => s !== NONE);

/** One attempt as the delivery log shows it. */
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

/** What a delivery is about, before it has a state. */
export type DeliveryDraft = Pick<Delivery, 'id' | 'tenantId' | 'sessionId' | 'event' | 'body'> & {
  /** The webhook URL when the delivery was queued (the log shows it until an attempt is made). */
  url?: string | null;
};

/** How many attempts the log keeps. */
export const LOG_LIMIT = 50;

/** What an attempt's outcome sets on its delivery. */
export interface Outcome {
  record: AttemptRecord;
  status: OutcomeStatus;
  /** For a retry: when the next attempt is due. */
  nextAttemptAt?: string | null;
}

/** The fields an outcome changes, from the delivery as it was claimed. */
export function outcomeFields(d: Pick<Delivery, 'attemptLog'>, o: Outcome) {
  const at = o.record.at;
  return {
    status: o.status,
    attemptLog: [...(d.attemptLog ?? []), o.record].slice(-LOG_LIMIT),
    url: o.record.url,
    lastStatusCode: o.record.statusCode,
    lastError: o.record.error,
    nextAttemptAt: o.nextAttemptAt ?? null,
    deliveredAt: o.status === 'delivered' ? at : undefined,
    failedAt: o.status === 'failed' ? at : undefined,
    updatedAt: at,
  };
}

/** The claim fields of attempt `attempt`, taken with `token` at `nowMs`. */
export const claimFields = (attempt: number, token: string, nowMs: number) => ({
  status: 'sending' as const,
  attempts: attempt,
  claimToken: token,
  claimedAt: nowMs,
  updatedAt: new Date(nowMs).toISOString(),
});

/**
 * THE way a delivery record comes to be: the draft, made by one of the steps that start from
 * nothing (`create`, `claimNew` with its claim, `firstOutcome` with the first attempt's outcome).
 */
export function newDelivery(
  draft: DeliveryDraft,
  createdAtMs: number,
  how:
    | { step: 'create' }
    | { step: 'claimNew'; token: string; nowMs: number }
    | { step: 'firstOutcome'; outcome: Outcome },
): Delivery {
  const iso = new Date(createdAtMs).toISOString();
  const base: Delivery = {
    ...draft,
    status: next('create', NONE),
    round: 0,
    attempts: 0,
    url: draft.url ?? null,
    attemptLog: [],
    createdAt: iso,
    updatedAt: iso,
  };
  if (how.step === 'create') return base;
  if (how.step === 'claimNew') {
    next('claimNew', NONE);
    return { ...base, ...claimFields(1, how.token, how.nowMs) };
  }
  next('firstOutcome', NONE, how.outcome.status);
  return { ...base, attempts: 1, ...outcomeFields(base, how.outcome) };
}
