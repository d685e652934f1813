import type { DriverLink } from './drivers/driver.ts';

/** How long a probe may go unanswered before the link counts as dead. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Zombie detection for one session's link: a READY link can stay open while the network no longer
 * answers on it, so one quiet for `idleMs` (or suspected at once, `check(true)`) is probed, and a
 * link that fails the probe goes to `onSilent` (the runtime closes and reconnects it). Kept out of
 * session-runtime.ts, which owns the link's states; this owns only "is it still alive".
 */
export class ZombieWatch {
  private lastActivity = Date.now();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    /** The link to watch: only a READY one. */
    private readonly readyLink: () => DriverLink | undefined,
    private readonly onSilent: (err: Error) => Promise<void>,
  ) {}

  /** The link showed life (it opened, or the network sent something). */
  touch(): void {
    this.lastActivity = Date.now();
  }

  start(): void {
    this.timer = setInterval(() => void this.check(), Math.max(1000, this.idleMs / 2));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Probes the READY link if it has been quiet for `idleMs`, or at once with `now`. */
  async check(now = false): Promise<void> {
    const link = this.readyLink();
    if (!link) return;
    if (!now && Date.now() - this.lastActivity < this.idleMs) return;
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        link.probe(),
        new Promise((_, rej) => {
          timeout = setTimeout(() => rej(new Error('probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
      this.touch();
    } catch (err) {
      await this.onSilent(err as Error);
    } finally {
      // An answered probe leaves no timer behind (one per link per idle period, at thousands of links).
      clearTimeout(timeout);
    }
  }
}
