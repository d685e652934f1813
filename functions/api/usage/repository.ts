import type { Session } from '#shared/sessions/session';
import { sessionKey, usageKey, usagesOf } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { countDaily } from '#shared/usage/daily';
import { defaultMessageQuota } from './config.ts';
import { periodEnd } from './period.ts';

/** Usage items outlive their month by a year, for reporting. */
const expiresAt = (period: string) =>
  Math.floor(periodEnd(new Date(`${period}-01T00:00:00Z`)).getTime() / 1000) + 366 * 86_400;

/** The session's own limit (set through the usage endpoint), else the deployment default. */
export function limitOf(session: Session): number {
  const own = (session as Session & { messageLimit?: number }).messageLimit;
  return typeof own === 'number' ? own : defaultMessageQuota();
}

/**
 * Counts one message against the limit, atomically: the increment happens only while usage is below
 * `limit`, so concurrent senders never overshoot. Answers the new usage, or undefined when exhausted.
 */
export async function consumeQuota(
  tenantId: string,
  sessionId: string,
  period: string,
  limit: number,
): Promise<number | undefined> {
  if (limit <= 0) return undefined;
  const item = await dataTable.update<{ usage: number }>(
    usageKey(tenantId, period, sessionId),
    { type: 'usage', tenantId, sessionId, period, expiresAt: expiresAt(period) },
    {
      add: { usage: 1 },
      condition: 'attribute_not_exists(#q) OR #q < :limit',
      names: { '#q': 'usage' },
      values: { ':limit': limit },
    },
  );
  if (item) await countDaily(tenantId, sessionId, { sent: 1 });
  return item?.usage;
}

/** Gives back a message that was counted but never accepted (store or queue failure). */
export async function refundQuota(tenantId: string, sessionId: string, period: string): Promise<void> {
  const refunded = await dataTable.update(
    usageKey(tenantId, period, sessionId),
    {},
    { add: { usage: -1 }, condition: '#q > :zero', names: { '#q': 'usage' }, values: { ':zero': 0 } },
  );
  if (refunded) await countDaily(tenantId, sessionId, { sent: -1 });
}

export async function usageOf(tenantId: string, sessionId: string, period: string): Promise<number> {
  const item = await dataTable.get<{ usage?: number }>(usageKey(tenantId, period, sessionId), true);
  return item?.usage ?? 0;
}

/** Usage of every session of the tenant in the period, by session id. */
export async function usageOfTenant(tenantId: string, period: string): Promise<Map<string, number>> {
  const items = await dataTable.query<{ sessionId: string; usage?: number }>({
    ...usagesOf(tenantId, period),
    ascending: true,
  });
  return new Map(items.map((i) => [i.sessionId, i.usage ?? 0]));
}

/** Stores the session's own monthly limit on the session record. */
export async function setSessionLimit(tenantId: string, sessionId: string, limit: number): Promise<void> {
  await dataTable.update(
    sessionKey(tenantId, sessionId),
    { messageLimit: limit },
    { condition: 'attribute_exists(pk)' },
  );
}
