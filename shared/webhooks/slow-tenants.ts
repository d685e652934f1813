/**
 * Tenants whose webhook receivers answer slowly, as this process has seen them, and how many of
 * their POSTs it has under way. A slow receiver must hold up only its own tenant's deliveries
 * (docs/events.md, "Fair sharing"): the events consumer stops waiting for a slow tenant's first
 * attempts (they go to the webhooks queue at once), the webhooks consumer POSTs a slow tenant's jobs
 * each on its own, outside the batches other tenants share, a few at a time, and puts the rest back
 * on the queue for later. What one process learns stays in it: another learns by its own attempts.
 */

/** An answer slower than this (or none by then) is a sign of a slow receiver (see SLOW_STRIKES). */
export const SLOW_ANSWER_MS = 2_000;
/** A tenant stays slow this long after its last slow answer. */
export const SLOW_HOLD_MS = 60_000;
/** A slow tenant's POSTs under way at once in one process; its other jobs wait on the queue. */
export const SLOW_TENANT_IN_FLIGHT = 8;
/** A slow tenant's job put back on the queue waits at least this long, more the more are waiting. */
export const SLOW_REQUEUE_MS = 2_000;
const SLOW_REQUEUE_MAX_MS = 60_000;

const slowUntil = new Map<string, number>();
const inFlight = new Map<string, number>();
/** Jobs put back per tenant in the current window, to spread their return over time. */
const deferred = new Map<string, { count: number; since: number }>();

/**
 * Slow answers (or attempts still under way at the events consumer's deadline) a tenant needs within
 * `SLOW_HOLD_MS` to count as slow: one stall of a busy machine must not send a healthy receiver's
 * deliveries through the queue (out of order, later), a receiver that is really slow gets there at
 * once.
 */
export const SLOW_STRIKES = 3;
const strikes = new Map<string, number[]>();

/** One sign of a slow receiver; the `SLOW_STRIKES`-th within `SLOW_HOLD_MS` marks the tenant slow. */
export function markSlow(tenantId: string, now = Date.now()): void {
  const recent = (strikes.get(tenantId) ?? []).filter((t) => now - t < SLOW_HOLD_MS);
  recent.push(now);
  if (recent.length < SLOW_STRIKES) {
    strikes.set(tenantId, recent);
    return;
  }
  strikes.delete(tenantId);
  slowUntil.set(tenantId, now + SLOW_HOLD_MS);
}

export function isSlow(tenantId: string, now = Date.now()): boolean {
  const until = slowUntil.get(tenantId);
  if (until === undefined) return false;
  if (until > now) return true;
  slowUntil.delete(tenantId);
  return false;
}

/** One POST's answer time (receivers that answered at all, or timed out): slow ones mark their tenant. */
export function noteAnswer(tenantId: string, durationMs: number): void {
  if (durationMs >= SLOW_ANSWER_MS) markSlow(tenantId);
}

/**
 * A slot for one more of a slow tenant's POSTs in this process, with the function that frees it;
 * undefined when it has `SLOW_TENANT_IN_FLIGHT` under way.
 */
export function takeSlot(tenantId: string): (() => void) | undefined {
  const n = inFlight.get(tenantId) ?? 0;
  if (n >= SLOW_TENANT_IN_FLIGHT) return undefined;
  inFlight.set(tenantId, n + 1);
  let freed = false;
  return () => {
    if (freed) return;
    freed = true;
    const left = (inFlight.get(tenantId) ?? 1) - 1;
    if (left > 0) inFlight.set(tenantId, left);
    else inFlight.delete(tenantId);
  };
}

/**
 * How long a slow tenant's job put back now waits on the queue: `SLOW_REQUEUE_MS`, and one more
 * step for every `SLOW_TENANT_IN_FLIGHT` of its jobs put back in the last minute (up to a minute),
 * so a large backlog comes back spread out instead of all being received again every few seconds.
 */
export function requeueDelayMs(tenantId: string, now = Date.now()): number {
  let d = deferred.get(tenantId);
  if (!d || now - d.since > SLOW_REQUEUE_MAX_MS) {
    d = { count: 0, since: now };
    deferred.set(tenantId, d);
  }
  const step = Math.floor(d.count++ / SLOW_TENANT_IN_FLIGHT);
  return Math.min(SLOW_REQUEUE_MAX_MS, SLOW_REQUEUE_MS * (1 + step));
}
