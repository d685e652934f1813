import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { usageDayKey, usageDaysOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/** What is counted per session and UTC day, for usage over time (GET /api/sessions/usage/daily). */
export const DAILY_COUNTERS = [
  'sent',
  'received',
  'botReplies',
  'aiCalls',
  'docAnalyses',
  'audioTranscriptions',
  'credits',
] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];
export type DailyCounts = Record<DailyCounter, number>;

/** A day's counters are kept a little over a year. */
const KEEP_S = 400 * 86_400;

/** The UTC day of `ms`, `YYYY-MM-DD`. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function update(tenantId: string, sessionId: string, add: Partial<DailyCounts>, atMs: number) {
  const day = dayOf(atMs);
  const counts = Object.fromEntries(Object.entries(add).filter(([, v]) => v)) as Record<string, number>;
  return {
    key: usageDayKey(tenantId, sessionId, day),
    set: { type: 'usage-day', sessionId, day, expiresAt: Math.floor(atMs / 1000) + KEEP_S },
    counts,
  };
}

/**
 * Adds to a session's counters of the day of `atMs` (DynamoDB `ADD`: concurrent writers never lose
 * a count). A caller that must count an event once uses `dailyCountOp` inside its own transaction.
 */
export async function countDaily(
  tenantId: string,
  sessionId: string,
  add: Partial<DailyCounts>,
  atMs = Date.now(),
): Promise<void> {
  const u = update(tenantId, sessionId, add, atMs);
  if (Object.keys(u.counts).length === 0) return;
  await dataTable.update(u.key, u.set, { add: u.counts });
}

/** The same addition as one item of a transaction (undefined when it adds nothing). */
export function dailyCountOp(
  tenantId: string,
  sessionId: string,
  add: Partial<DailyCounts>,
  atMs = Date.now(),
): TransactWriteItem | undefined {
  const u = update(tenantId, sessionId, add, atMs);
  if (Object.keys(u.counts).length === 0) return undefined;
  return dataTable.updateOp(u.key, u.set, { add: u.counts });
}

/**
 * The session's counters for each of the `days` UTC days up to today (`nowMs`), oldest first, a day
 * without any as zeros. One Query of at most `days` items.
 */
export async function dailyUsage(
  tenantId: string,
  sessionId: string,
  days: number,
  nowMs = Date.now(),
): Promise<Array<{ day: string } & DailyCounts>> {
  const items = await dataTable.query<Record<string, unknown>>({
    ...usageDaysOf(tenantId, sessionId),
    limit: days,
  });
  const byDay = new Map(items.map((it) => [String(it.day), it]));
  return lastDays(days, nowMs).map((day) => {
    const it = byDay.get(day);
    const counts = Object.fromEntries(DAILY_COUNTERS.map((c) => [c, Number(it?.[c] ?? 0)])) as DailyCounts;
    return { day, ...counts };
  });
}

/** The `days` UTC days ending today, oldest first. */
export function lastDays(days: number, nowMs = Date.now()): string[] {
  return Array.from({ length: days }, (_, i) => dayOf(nowMs - (days - 1 - i) * 86_400_000));
}
