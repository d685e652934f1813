import type { Logger } from '#shared/log/logger';
import { count } from '#shared/metrics/metrics';

/**
 * A host's memory budget (HOST_MEMORY_BUDGET_MB). Past it, the host takes no more shards and says
 * so on every heartbeat (its record's `full`, the `HostFullBeats` metric, a log line when it
 * crosses), so the other hosts share the shards it leaves (shard-plan.ts). It keeps what it holds:
 * handing shards over would only move the pressure to the next host, which the cloud's auto-scaling
 * relieves instead (infra/host.ts).
 */
export class MemoryBudget {
  private wasFull = false;

  constructor(
    private readonly budgetMb: number | undefined,
    private readonly log: Logger,
    private readonly rss: () => number = () => process.memoryUsage().rss,
  ) {}

  /** Whether the host is past its budget now; logs when that changes. */
  full(): boolean {
    if (this.budgetMb === undefined) return false;
    const rssMb = Math.round(this.rss() / 2 ** 20);
    const full = rssMb >= this.budgetMb;
    if (full !== this.wasFull) {
      if (full)
        this.log.warn({ rssMb, budgetMb: this.budgetMb }, 'past the memory budget: taking no more shards');
      else
        this.log.info(
          { rssMb, budgetMb: this.budgetMb },
          'back under the memory budget: taking shards again',
        );
      this.wasFull = full;
    }
    return full;
  }

  /** Counted once per heartbeat while past the budget: the metric an alarm watches. */
  beat(): boolean {
    const full = this.full();
    if (full) count('hostFullBeats');
    return full;
  }
}
