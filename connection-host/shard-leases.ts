import type { Logger } from '#shared/log/logger';
import { type LeaseGuard, release, renew, tryAcquire } from './leases.ts';

/** What the host does when a shard becomes its own, or stops being so. */
export interface ShardHandlers {
  /** The shard is held now (its fence already known): consume its commands, resume its sessions. */
  acquired(shard: number): Promise<void>;
  /** Another host holds the shard now: stop all work of it. The fence stays known until this returns. */
  lost(shard: number): Promise<void>;
}

export interface LeaseStore {
  tryAcquire: typeof tryAcquire;
  renew: typeof renew;
  release: typeof release;
}

/** Renew well inside the TTL, and look for released shards often (a clean stop frees them at once). */
const tickMs = (ttlMs: number) => Math.max(500, Math.min(2000, Math.floor(ttlMs / 3)));

/**
 * The lease loop: every tick renews the shards this host holds and tries to take the others, so a
 * shard whose host died (stopped renewing) or stopped cleanly (released) moves here.
 */
export class ShardLeases {
  /** Held shard → the fence it is held under. */
  private readonly held = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private ticking = Promise.resolve();

  constructor(
    private readonly cfg: { hostId: string; shardCount: number; ttlMs: number },
    private readonly handlers: ShardHandlers,
    private readonly log: Logger,
    private readonly store: LeaseStore = { tryAcquire, renew, release },
  ) {}

  /** The lease a link of this shard runs under, while this host holds it. */
  guard(shard: number): LeaseGuard | undefined {
    const fence = this.held.get(shard);
    return fence === undefined ? undefined : { shard, owner: this.cfg.hostId, fence };
  }

  owned(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** One round at once, so the host comes up with the shards it can get; then one per tick. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, tickMs(this.cfg.ttlMs));
  }

  /** Stops renewing and acquiring; the shards stay held (and fenced) until `releaseAll`. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  /** Frees the held shards for other hosts at once instead of after the TTL. */
  async releaseAll(): Promise<void> {
    const { hostId } = this.cfg;
    await Promise.all(this.owned().map((s) => this.store.release(s, hostId).catch(() => undefined)));
    this.held.clear();
  }

  private async tick(): Promise<void> {
    const { hostId, shardCount, ttlMs } = this.cfg;
    for (let shard = 0; shard < shardCount; shard++) {
      try {
        if (this.held.has(shard)) {
          if (await this.store.renew(shard, hostId, ttlMs)) continue;
          await this.handlers.lost(shard);
          this.held.delete(shard);
        } else {
          const lease = await this.store.tryAcquire(shard, hostId, ttlMs);
          if (!lease) continue;
          this.held.set(shard, lease.fence);
          await this.handlers.acquired(shard);
        }
      } catch (err) {
        this.log.error({ err, shard }, 'lease tick failed');
      }
    }
  }
}
