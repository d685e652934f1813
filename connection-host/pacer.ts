/**
 * Spaces one session's outbound messages: at most one per `intervalMs` (±20 % jitter). Bursts wait
 * in line instead of failing, because the network bans accounts that blast.
 */
export class Pacer {
  private next = 0;
  constructor(
    private readonly intervalMs: number,
    private readonly random = Math.random,
  ) {}

  async wait(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next);
    const jitter = this.intervalMs * 0.2 * (this.random() * 2 - 1);
    this.next = at + Math.max(0, this.intervalMs + jitter);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}
