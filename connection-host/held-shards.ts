/**
 * The shards this host holds, each under its fence, and each shard's work (resume, stop) run in
 * order beside the lease loop. Apart from the loop (shard-leases.ts) so that what a host holds,
 * and how a shard is let go, has one owner: the heartbeat lets every shard go through it, a
 * planning round (lease-round.ts) takes and hands over through it.
 */
import type { Logger } from '#shared/log/logger';
import type { LeaseGuard } from './leases.ts';

/** What the host does when a shard becomes its own, or stops being so. */
export interface ShardHandlers {
  /** The shard is held now (its fence already known): consume its commands, resume its sessions. */
  acquired(shard: number): Promise<void>;
  /**
   * Another host holds the shard now (`lost`), or this one hands it over (`release`): stop all work
   * of it. The fence stays known until this returns.
   */
  lost(shard: number, why: 'lost' | 'release'): Promise<void>;
  /** Sessions the shard runs here: the hosts share sessions (shard-plan.ts). */
  load?(shard: number): number;
  /** Whether a session of the shard is being linked: the shard is not handed over meanwhile. */
  pinned?(shard: number): boolean;
  /** Whether this host is past its memory budget: it then takes no more shards. */
  full?(): boolean;
  /** A shard's command queue: a host gathers the shards of few queues (shard-plan.ts). */
  groupOf?(shard: number): number;
}

export interface HeldShardsDeps {
  hostId: string;
  handlers: ShardHandlers;
  /** Frees a handed-over shard's lease, for the host it is meant for (`to`) when there is one. */
  release(shard: number, owner: string, to?: string): Promise<void>;
  /** Tells the other hosts that something moved (plan-reads.ts). */
  bump(): Promise<void>;
  /** Every shard's work (resume, stop) is done: the host's heartbeat can tell so now. */
  idle?(): void;
  log: Logger;
}

export class HeldShards {
  /** Held shard → the fence it is held under. */
  private readonly held = new Map<number, number>();
  /** Held shards being let go: `lost` (another host took it) or `release` (handed over). */
  private readonly leaving = new Map<number, 'lost' | 'release'>();
  /** Each shard's work (resume, stop) in order; a hand-over waits for the resume before it. */
  private readonly work = new Map<number, Promise<void>>();

  constructor(private readonly deps: HeldShardsDeps) {}

  get size(): number {
    return this.held.size;
  }

  has(shard: number): boolean {
    return this.held.has(shard);
  }

  /** Held shard → its fence. */
  fences(): IterableIterator<[number, number]> {
    return this.held.entries();
  }

  /** The lease a link of this shard runs under, while this host holds it. */
  guard(shard: number): LeaseGuard | undefined {
    const fence = this.held.get(shard);
    return fence === undefined ? undefined : { shard, owner: this.deps.hostId, fence };
  }

  owned(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  isLeaving(shard: number): boolean {
    return this.leaving.has(shard);
  }

  /** Whether a shard is being let go: while one is, the counts others read are in motion. */
  anyLeaving(): boolean {
    return this.leaving.size > 0;
  }

  /** Whether a shard is being taken, resumed or handed over here (the heartbeat tells the others). */
  busy(): boolean {
    return this.work.size > 0 || this.leaving.size > 0;
  }

  /** Resolves once every shard's acquire and hand-over started so far has finished. */
  async settled(): Promise<void> {
    while (this.work.size) await Promise.all(this.work.values());
  }

  /** A shard taken under `fence`: held from now on, its sessions resumed beside the loop. */
  took(shard: number, fence: number): void {
    this.held.set(shard, fence);
    this.inOrder(shard, () => this.deps.handlers.acquired(shard));
  }

  /** Forgets every held shard without stopping its work: their leases were just released. */
  clear(): void {
    this.held.clear();
  }

  /** No heartbeat for nearly the lease TTL: every held shard goes, since others may be taking them. */
  loseAll(): void {
    if (!this.held.size) return;
    this.deps.log.warn(
      { shards: this.held.size },
      'no heartbeat for nearly the lease TTL: letting every shard go',
    );
    for (const shard of this.held.keys()) if (!this.leaving.has(shard)) this.letGo(shard, 'lost');
  }

  /**
   * Stops the shard's work beside the loop; a hand-over then releases the lease for the next host
   * (`to`, when it is meant for one).
   */
  letGo(shard: number, why: 'lost' | 'release', to?: string): void {
    const { hostId, handlers, release, bump } = this.deps;
    this.leaving.set(shard, why);
    this.inOrder(shard, async () => {
      try {
        await handlers.lost(shard, why);
        if (why === 'release') {
          await release(shard, hostId, to);
          // Only now is the shard free: the host it is meant for reads on its next tick.
          await bump();
        }
      } finally {
        this.held.delete(shard);
        this.leaving.delete(shard);
      }
    });
  }

  private inOrder(shard: number, fn: () => Promise<void>): void {
    const next = (this.work.get(shard) ?? Promise.resolve())
      .then(fn)
      .catch((err: unknown) => this.deps.log.error({ err, shard }, 'shard work failed'));
    this.work.set(shard, next);
    void next.then(() => {
      if (this.work.get(shard) !== next) return;
      this.work.delete(shard);
      if (!this.busy()) this.deps.idle?.();
    });
  }
}
