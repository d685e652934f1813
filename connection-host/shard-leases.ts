import type { Logger } from '#shared/log/logger';
import { type LeaseGuard, readLeases, release, renew, tryAcquire } from './leases.ts';
import { planShards } from './shard-plan.ts';

/** What the host does when a shard becomes its own, or stops being so. */
export interface ShardHandlers {
  /** The shard is held now (its fence already known): consume its commands, resume its sessions. */
  acquired(shard: number): Promise<void>;
  /**
   * Another host holds the shard now (`lost`), or this one hands it over (`release`): stop all work
   * of it. The fence stays known until this returns.
   */
  lost(shard: number, why: 'lost' | 'release'): Promise<void>;
  /** Sessions the shard runs here: the lightest shards are handed over first. */
  load?(shard: number): number;
}

export interface LeaseStore {
  tryAcquire: typeof tryAcquire;
  renew: typeof renew;
  release: typeof release;
  readLeases: typeof readLeases;
}

/** How a host tells the others it is alive, and learns which hosts are. */
export interface Presence {
  /** Writes this host's heartbeat; answers the ids of the live hosts (this one among them). */
  beat(): Promise<string[]>;
  /** Removes this host's heartbeat: a clean stop. */
  leave(): Promise<void>;
}

/** Without a presence the host believes itself alone and takes every free shard. */
const alone = (hostId: string): Presence => ({ beat: async () => [hostId], leave: async () => {} });

/**
 * Renew well inside the TTL, and look for released shards often (a clean stop frees them at once).
 * Each tick costs DynamoDB writes (a renewal per held shard, a heartbeat): `npm run cost` reads it.
 */
export const leaseTickMs = (ttlMs: number) => Math.max(500, Math.min(2000, Math.floor(ttlMs / 3)));

/**
 * The lease loop. Every tick renews the shards this host holds, beats its heartbeat, and then, from
 * the live hosts and the leases, takes its share of the free shards or hands over what it holds
 * beyond its share (connection-host/shard-plan.ts). A shard whose host died (stopped renewing) or
 * stopped cleanly (released) moves to a host below its share.
 *
 * Acquiring a shard (resuming its sessions) and handing one over (closing its links) run beside
 * the loop, one after the other per shard, so a shard with hundreds of sessions to resume never
 * delays renewing the others.
 */
export class ShardLeases {
  /** Held shard → the fence it is held under. */
  private readonly held = new Map<number, number>();
  /** Held shards being let go: `lost` (another host took it) or `release` (handed over). */
  private readonly leaving = new Map<number, 'lost' | 'release'>();
  /** Each shard's work (resume, stop) in order; a hand-over waits for the resume before it. */
  private readonly work = new Map<number, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private ticking = Promise.resolve();

  constructor(
    private readonly cfg: { hostId: string; shardCount: number; ttlMs: number },
    private readonly handlers: ShardHandlers,
    private readonly log: Logger,
    private readonly store: LeaseStore = { tryAcquire, renew, release, readLeases },
    private readonly presence: Presence = alone(cfg.hostId),
  ) {}

  /** The lease a link of this shard runs under, while this host holds it. */
  guard(shard: number): LeaseGuard | undefined {
    const fence = this.held.get(shard);
    return fence === undefined ? undefined : { shard, owner: this.cfg.hostId, fence };
  }

  owned(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** One round at once, so the host comes up holding the shards it can get; then one per tick. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, leaseTickMs(this.cfg.ttlMs));
  }

  /** Resolves once every shard's acquire and hand-over started so far has finished. */
  async settled(): Promise<void> {
    while (this.work.size) await Promise.all(this.work.values());
  }

  /** Stops renewing and acquiring; the shards stay held (and fenced) until `releaseAll`. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await this.settled();
  }

  /**
   * Leaves the host list, then frees the held shards for other hosts at once instead of after the
   * TTL. In that order: a host that saw the shards free while this one still counted as live would
   * leave them for this one's share until its next tick.
   */
  async releaseAll(): Promise<void> {
    const { hostId } = this.cfg;
    await this.presence
      .leave()
      .catch((err: unknown) => this.log.warn({ err }, 'leaving the host list failed'));
    await Promise.all(this.owned().map((s) => this.store.release(s, hostId).catch(() => undefined)));
    this.held.clear();
  }

  private async tick(): Promise<void> {
    const { hostId, shardCount, ttlMs } = this.cfg;
    await Promise.all(
      [...this.held.keys()]
        .filter((shard) => this.leaving.get(shard) !== 'lost')
        .map(async (shard) => {
          try {
            if (!(await this.store.renew(shard, hostId, ttlMs))) this.letGo(shard, 'lost');
          } catch (err) {
            this.log.error({ err, shard }, 'lease renewal failed');
          }
        }),
    );

    // One change at a time: while a shard is being let go, the counts others read are in motion.
    if (this.leaving.size) return;
    let plan: ReturnType<typeof planShards>;
    try {
      const [hosts, leases] = await Promise.all([this.presence.beat(), this.store.readLeases(shardCount)]);
      plan = planShards({
        me: hostId,
        hosts,
        leases,
        shardCount,
        now: Date.now(),
        load: this.handlers.load?.bind(this.handlers),
      });
    } catch (err) {
      this.log.error({ err }, 'reading hosts and leases failed');
      return;
    }
    for (const shard of plan.release) {
      this.log.info({ shard, target: plan.target }, 'handing a shard over');
      this.letGo(shard, 'release');
    }
    for (const shard of plan.take) {
      if (this.held.has(shard)) continue;
      try {
        const lease = await this.store.tryAcquire(shard, hostId, ttlMs);
        if (!lease) continue;
        this.held.set(shard, lease.fence);
        this.inOrder(shard, () => this.handlers.acquired(shard));
      } catch (err) {
        this.log.error({ err, shard }, 'lease acquire failed');
      }
    }
  }

  /** Stops the shard's work beside the loop; a hand-over then releases the lease for the next host. */
  private letGo(shard: number, why: 'lost' | 'release'): void {
    this.leaving.set(shard, why);
    this.inOrder(shard, async () => {
      try {
        await this.handlers.lost(shard, why);
        if (why === 'release') await this.store.release(shard, this.cfg.hostId);
      } finally {
        this.held.delete(shard);
        this.leaving.delete(shard);
      }
    });
  }

  private inOrder(shard: number, fn: () => Promise<void>): void {
    const next = (this.work.get(shard) ?? Promise.resolve())
      .then(fn)
      .catch((err: unknown) => this.log.error({ err, shard }, 'shard work failed'));
    this.work.set(shard, next);
    void next.then(() => {
      if (this.work.get(shard) === next) this.work.delete(shard);
    });
  }
}
