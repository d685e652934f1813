import type { ReconnectState } from '#shared/sessions/session';
import { reconnectDelay } from './backoff.ts';
import type { LinkEnd } from './drivers/driver.ts';

/**
 * What follows the end of a session's link, by the documented policy (docs/sessions.md): only
 * logged out, banned (fatal), a bad session (refused logins in a row) and a session replaced again
 * and again end it; everything else is retried forever with capped backoff. Pure, so the table
 * reads in one place; the runtime (session-runtime.ts) carries it out.
 */

/** 440s in a row (no link lasting REPLACED_CALM_MS between) before we stop fighting the other client. */
export const MAX_REPLACED = 3;
const REPLACED_CALM_MS = 5 * 60_000;

/** The ends counted since the last READY (refusals) or the last calm link (replacements). */
export interface EndCounts {
  refusals: number;
  replaced: number;
}

export type NextStep =
  | { kind: 'retry'; reason: string }
  | { kind: 'end'; status: 'LOGGED_OUT' | 'FAILED' | 'DISCONNECTED'; reason: string };

/**
 * The next step after `end`, counting it in `counts`. A restart is reopened at once and a 440 after
 * the shard moved away is the new holder's: the runtime handles both before asking here.
 */
export function afterLinkEnd(
  end: Exclude<LinkEnd, { kind: 'restart' }>,
  counts: EndCounts,
  linkLastedMs: number,
  maxFailures: number,
): NextStep {
  switch (end.kind) {
    case 'logged_out':
      return { kind: 'end', status: 'LOGGED_OUT', reason: end.reason };
    case 'fatal':
      return { kind: 'end', status: 'FAILED', reason: end.reason };
    case 'replaced':
      if (linkLastedMs >= REPLACED_CALM_MS) counts.replaced = 0;
      counts.replaced++;
      if (counts.replaced >= MAX_REPLACED)
        return {
          kind: 'end',
          status: 'DISCONNECTED',
          reason: `${end.reason}; replaced ${counts.replaced} times in a row, so another client is using this session: not fighting it (POST /api/sessions/{sessionId}/reconnect takes it back)`,
        };
      return { kind: 'retry', reason: end.reason };
    case 'refused':
      counts.refusals++;
      if (counts.refusals >= maxFailures)
        return {
          kind: 'end',
          status: 'FAILED',
          reason: `bad session: the network refused ${counts.refusals} logins in a row; last: ${end.reason}`,
        };
      return { kind: 'retry', reason: end.reason };
    case 'transient':
      return { kind: 'retry', reason: end.reason };
  }
}

/**
 * One session's reconnect bookkeeping across its links: the backoff step, the ends counted, and
 * the last disconnect (session info shows them through the recorded reconnect state).
 */
export class ReconnectTracker {
  /** Reconnect attempts since the last READY: the backoff step. */
  attempt = 0;
  private readonly counts: EndCounts = { refusals: 0, replaced: 0 };
  private openedAt?: number;
  private lastDisconnect?: ReconnectState['lastDisconnect'];

  /** The link is READY: the backoff and the refusals start again; its life is measured from now. */
  opened(): void {
    this.attempt = 0;
    this.counts.refusals = 0;
    this.openedAt = Date.now();
  }

  /** A user's reconnect: the backoff and every count start again. */
  reset(): void {
    this.attempt = 0;
    this.counts.refusals = 0;
    this.counts.replaced = 0;
  }

  /** Notes a link's end (not a restart); answers how long the link lasted (0: it never opened). */
  closed(end: { reason: string; code?: number }): number {
    this.lastDisconnect = { ...(end.code ? { code: end.code } : {}), reason: end.reason, at: Date.now() };
    const lasted = this.openedAt ? Date.now() - this.openedAt : 0;
    this.openedAt = undefined;
    return lasted;
  }

  /** The next step after `end` (`afterLinkEnd`), counted. */
  next(end: Exclude<LinkEnd, { kind: 'restart' }>, linkLastedMs: number, maxFailures: number): NextStep {
    return afterLinkEnd(end, this.counts, linkLastedMs, maxFailures);
  }

  /** The capped, jittered wait before the next attempt; counts the attempt. */
  nextDelay(baseMs: number, maxMs?: number): number {
    const delay = reconnectDelay(this.attempt, baseMs, maxMs);
    this.attempt++;
    return delay;
  }

  /** The reconnect state to record: the next attempt's time, when one is planned. */
  state(nextRetryAt: number | undefined): ReconnectState {
    return {
      attempt: this.attempt,
      ...(nextRetryAt ? { nextRetryAt } : {}),
      ...(this.lastDisconnect ? { lastDisconnect: this.lastDisconnect } : {}),
    };
  }
}
