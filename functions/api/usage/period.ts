/**
 * Quotas run per calendar month in UTC. Usage is stored per period key, so a new month starts at
 * zero without any reset job.
 */
export function periodOf(at: Date = new Date()): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The first instant of the next period. */
export function periodEnd(at: Date = new Date()): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Whole seconds until the period resets (at least 1), for `Retry-After`. */
export function secondsToPeriodEnd(at: Date = new Date()): number {
  return Math.max(1, Math.ceil((periodEnd(at).getTime() - at.getTime()) / 1000));
}
