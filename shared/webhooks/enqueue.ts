import { createHash, randomBytes } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { hostOf, isApprovedHost } from './config.ts';
import {
  carriesPayload,
  firstAttempt,
  firstAttemptCreating,
  sendJob,
  sendJobs,
  TAKEOVER_DELAY_MS,
  type WebhookJob,
} from './job.ts';
import { type Delivery, newDelivery } from './lifecycle.ts';
import { createDelivery, getDelivery } from './repository.ts';
import { resolveTarget, serialise } from './target.ts';

export interface EnqueueOptions {
  /**
   * Makes the delivery id a function of (tenant, event, dedupKey): enqueueing the same event again
   * (an SQS redelivery of the host event) finds the same record and sends nothing new.
   */
  dedupKey?: string;
}

function deliveryId(tenantId: string, event: string, dedupKey?: string): string {
  if (!dedupKey) return `dlv_${randomBytes(12).toString('hex')}`;
  return `dlv_${createHash('sha256').update(`${tenantId}\0${event}\0${dedupKey}`).digest('hex').slice(0, 24)}`;
}

/**
 * Queues `payload` for the webhook of the session (its override, else the tenant's). Nothing is
 * queued when forwarding is off, no URL is set, or the URL's host is not approved. Answers the
 * delivery id when one was queued.
 */
export function enqueueWebhook(
  tenantId: string,
  sessionId: string,
  event: string,
  payload: unknown,
  opt: EnqueueOptions = {},
): Promise<string | undefined> {
  return enqueueBuilt(tenantId, sessionId, event, async () => payload, opt);
}

/**
 * The URL the session's webhooks of this event (its format: native or Cloud) go to now, or undefined when none are sent: forwarding off, no URL,
 * or the URL's host not approved (logged).
 */
async function webhookTarget(
  tenantId: string,
  sessionId: string,
  event: string,
): Promise<string | undefined> {
  const cfg = await resolveTarget(tenantId, sessionId, event);
  if (!cfg.enabled || !cfg.webhookUrl) return undefined;
  if (!isApprovedHost(hostOf(cfg.webhookUrl), cfg.approvedDomains)) {
    logger.warn(
      { tenantId, sessionId, event, host: hostOf(cfg.webhookUrl) },
      'webhook host not approved; not sent',
    );
    return undefined;
  }
  return cfg.webhookUrl;
}

/** `create`: a delivery about to be stored, pending, no attempt made. */
function pendingDelivery(
  d: Pick<Delivery, 'id' | 'tenantId' | 'sessionId' | 'event' | 'url'>,
  payload: unknown,
  nowMs: number,
): Delivery {
  return newDelivery({ ...d, body: serialise(d.event, payload) }, nowMs, { step: 'create' });
}

/**
 * The first attempt of a delivery that existed already (the same event enqueued again), if the
 * first try died before queueing it; the claim makes a repeated job safe.
 */
async function unsentFirstAttempt(
  tenantId: string,
  sessionId: string,
  id: string,
): Promise<WebhookJob | undefined> {
  const existing = await getDelivery(tenantId, id);
  if (existing?.status !== 'pending' || existing.attempts !== 0) return undefined;
  return { tenantId, deliveryId: id, round: existing.round, attempt: 1, sessionId };
}

/**
 * As `enqueueWebhook`, but the payload is built only when a webhook will be sent (building may
 * read the store); a builder answering `undefined` sends nothing.
 */
export async function enqueueBuilt(
  tenantId: string,
  sessionId: string,
  event: string,
  build: () => Promise<unknown>,
  opt: EnqueueOptions = {},
): Promise<string | undefined> {
  const url = await webhookTarget(tenantId, sessionId, event);
  if (!url) return undefined;
  const payload = await build();
  if (payload === undefined) return undefined;
  const id = deliveryId(tenantId, event, opt.dedupKey);
  const now = Date.now();
  const job = await createdOrUnsent(
    pendingDelivery({ id, tenantId, sessionId, event, url }, payload, now),
    now,
  );
  if (job) await sendJob(job);
  logger.debug({ tenantId, sessionId, event, deliveryId: id }, 'webhook queued');
  return id;
}

/** The first attempt of a delivery created now, or of one that exists but was never queued. */
async function createdOrUnsent(record: Delivery, now: number): Promise<WebhookJob | undefined> {
  if (await createDelivery(record, now)) return firstAttempt(record);
  return unsentFirstAttempt(record.tenantId, record.sessionId, record.id);
}

/**
 * The deliveries of events applied again (an SQS redelivery of events stored before), whose first
 * attempts may have been made or be under way in another process (the events consumer makes them
 * itself, shared/webhooks/first-attempts.ts, and writes a record only with the outcome). A delivery
 * whose job carries its payload is queued `TAKEOVER_DELAY_MS` later with nothing written: the job
 * then finds the outcome recorded and does nothing, or makes the attempt. Any other is created
 * pending if absent and queued.
 */
export async function enqueueReplayed(
  tenantId: string,
  sessionId: string,
  event: string,
  entries: Array<{ build: () => Promise<unknown>; dedupKey: string }>,
): Promise<void> {
  const url = await webhookTarget(tenantId, sessionId, event);
  if (!url) return;
  const built = await Promise.all(entries.map((e) => e.build()));
  const now = Date.now();
  const later: WebhookJob[] = [];
  const others: Array<Promise<WebhookJob | undefined>> = [];
  entries.forEach((e, i) => {
    if (built[i] === undefined) return;
    const id = deliveryId(tenantId, event, e.dedupKey);
    const record = pendingDelivery({ id, tenantId, sessionId, event, url }, built[i], now);
    if (carriesPayload(record)) later.push(firstAttemptCreating(record, now));
    else others.push(createdOrUnsent(record, now));
  });
  const queued = await Promise.all(others);
  await Promise.all([
    sendJobs(queued.filter((j): j is WebhookJob => j !== undefined)),
    sendJobs(later, TAKEOVER_DELAY_MS),
  ]);
}

/**
 * The first attempts of new deliveries, for a caller that makes them itself
 * (shared/webhooks/first-attempts.ts), in the given order. A delivery whose payload travels in its
 * job is not written here: its record is made once, with the first attempt's outcome (or by its
 * claim when queued). A larger one is created pending now, and its job queued by its caller. Empty when
 * no webhook is sent.
 */
export async function prepareFirstAttempts(
  tenantId: string,
  sessionId: string,
  event: string,
  entries: Array<{ build: () => Promise<unknown>; dedupKey: string }>,
): Promise<WebhookJob[]> {
  const url = await webhookTarget(tenantId, sessionId, event);
  if (!url) return [];
  const built = await Promise.all(entries.map((e) => e.build()));
  const now = Date.now();
  const jobs = await Promise.all(
    entries.map(async (e, i): Promise<WebhookJob | undefined> => {
      if (built[i] === undefined) return undefined;
      const id = deliveryId(tenantId, event, e.dedupKey);
      const record = pendingDelivery({ id, tenantId, sessionId, event, url }, built[i], now);
      return carriesPayload(record) ? firstAttemptCreating(record, now) : createdOrUnsent(record, now);
    }),
  );
  return jobs.filter((j): j is WebhookJob => j !== undefined);
}
