import { sessionHistoryKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import type { Session } from './session.ts';

/** How many status changes a session keeps: enough to see a day of flapping, one small item. */
export const SESSION_HISTORY_MAX = 50;

/** One status change as the host reported it (`at`: host event time, epoch ms). */
export interface StatusChange {
  status: string;
  reason?: string;
  at: number;
}

interface HistoryItem {
  changes: StatusChange[];
  /** Bumped on every write: a concurrent writer's condition fails and it reads again. */
  version: number;
}

/**
 * The new history after `change`, or undefined when it changes nothing: the same event again
 * (same `at`) or the same status and reason as the change before it (a rotated QR code is no news).
 * Kept in time order and to the last `SESSION_HISTORY_MAX`.
 */
export function withChange(changes: StatusChange[], change: StatusChange): StatusChange[] | undefined {
  if (changes.some((c) => c.at === change.at && c.status === change.status)) return undefined;
  const before = changes.filter((c) => c.at <= change.at).at(-1);
  if (before && before.status === change.status && before.reason === change.reason) return undefined;
  return [...changes, change].sort((a, b) => a.at - b.at).slice(-SESSION_HISTORY_MAX);
}

/**
 * Records the status an applied host event gave the session. Idempotent (a retried event adds
 * nothing); a write that lost a race with another reads again, a few times at most.
 */
export async function recordStatusChange(s: Session): Promise<void> {
  const key = sessionHistoryKey(s.tenantId, s.sessionId);
  const change: StatusChange = { status: s.status, ...(s.reason ? { reason: s.reason } : {}), at: s.stateAt };
  for (let round = 0; round < 5; round++) {
    const item = await dataTable.get<HistoryItem>(key, true);
    const changes = withChange(item?.changes ?? [], change);
    if (!changes) return;
    const version = (item?.version ?? 0) + 1;
    const ok = await dataTable.put(
      { ...key, type: 'session-history', changes, version },
      item
        ? { condition: { expression: 'version = :v', values: { ':v': item.version } } }
        : { ifAbsent: true },
    );
    if (ok) return;
  }
  throw new Error(`session history of ${s.sessionId}: too many concurrent writes`);
}

/** A session's status changes, newest first. */
export async function statusHistory(tenantId: string, sessionId: string): Promise<StatusChange[]> {
  const item = await dataTable.get<HistoryItem>(sessionHistoryKey(tenantId, sessionId));
  return [...(item?.changes ?? [])].reverse();
}
