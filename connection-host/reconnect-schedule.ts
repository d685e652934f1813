import type { Logger } from '#shared/log/logger';
import type { ReconnectTracker } from './reconnect-policy.ts';
import type { RuntimeOptions } from './runtime-options.ts';

type ScheduleOptions = Pick<RuntimeOptions, 'reconnectBaseMs' | 'reconnectMaxDelayMs' | 'recordReconnect'>;

/**
 * When a session's next connect attempt happens, and the record of it that session info shows:
 * the timer for the capped, jittered backoff reconnect-policy.ts computes. Kept out of
 * session-runtime.ts, which decides whether to retry; this only schedules and records.
 */
export class ReconnectSchedule {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly tracker: ReconnectTracker,
    private readonly opts: ScheduleOptions,
    private readonly log: Logger,
  ) {}

  /** Runs `attempt` after the next backoff delay (replacing any attempt already due); records when. */
  async later(attempt: () => void): Promise<void> {
    const delay = this.tracker.nextDelay(this.opts.reconnectBaseMs, this.opts.reconnectMaxDelayMs);
    clearTimeout(this.timer);
    this.timer = setTimeout(attempt, delay);
    await this.record(Date.now() + delay);
  }

  /** Drops the attempt that is due, if any. */
  cancel(): void {
    clearTimeout(this.timer);
  }

  /** Records the reconnect state (no next attempt when `nextRetryAt` is undefined); a failure is logged. */
  async record(nextRetryAt: number | undefined): Promise<void> {
    if (!this.opts.recordReconnect) return;
    try {
      await this.opts.recordReconnect(this.tracker.state(nextRetryAt));
    } catch (err) {
      this.log.warn({ err }, 'reconnect state not recorded');
    }
  }
}
