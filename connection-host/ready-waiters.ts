import type { SessionStatus } from '#shared/events/types';
import type { DriverLink } from './drivers/driver.ts';

/**
 * The waits for a session's READY (a command that needs the link: connection-host/commands.ts),
 * and why one ends unanswered. A session runtime holds one set; only waits under way are held, so
 * a wait that settled, timed out or was given up leaves nothing behind.
 */

/** A wait for READY that will not be answered here: the host stopped the runtime (shard moved, stopping). */
export class RuntimeStoppedError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} was stopped on this host`);
    this.name = 'RuntimeStoppedError';
  }
}

/** A wait for READY that will never be answered: the session ended (logged out, failed, disconnected). */
export class SessionEndedError extends Error {
  constructor(
    sessionId: string,
    readonly status: SessionStatus,
    readonly reason?: string,
  ) {
    super(`session ${sessionId} is ${status}${reason ? `: ${reason}` : ''}`);
    this.name = 'SessionEndedError';
  }
}

/** The statuses a session does not leave by itself: a wait for READY then ends with `SessionEndedError`. */
export const TERMINAL = new Set<SessionStatus>(['LOGGED_OUT', 'FAILED', 'DISCONNECTED']);

export const abortReason = (signal?: AbortSignal) =>
  signal?.reason ?? new Error('the wait for READY was given up');

type Outcome = { link: DriverLink; error?: undefined } | { link?: undefined; error: unknown };
type ReadyWaiter = (outcome: Outcome) => void;

export class ReadyWaiters {
  private readonly waiters = new Set<ReadyWaiter>();

  /**
   * Resolves with the link at the next `wake` that brings one; rejects with the error a `wake`
   * brings, with `timedOut()` once `timeoutMs` passes (no limit when not given), or when `signal` aborts.
   */
  wait(
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
    timedOut: () => Error,
  ): Promise<DriverLink> {
    return new Promise((resolve, reject) => {
      const waiter: ReadyWaiter = (outcome) => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.link) resolve(outcome.link);
        else reject(outcome.error);
      };
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => waiter({ error: timedOut() }), timeoutMs);
      const onAbort = () => waiter({ error: abortReason(signal) });
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Settles every wait under way: with the link, or with why it will not come. */
  wake(outcome: { link: DriverLink } | { error: Error }): void {
    for (const w of [...this.waiters]) w(outcome);
  }

  /** Waits under way (each settles and leaves; nothing accumulates). */
  get size(): number {
    return this.waiters.size;
  }
}
