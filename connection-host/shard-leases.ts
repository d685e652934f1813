import type { Logger } from '#shared/log/logger';
import { alone, Heartbeat, type HostView, type Presence } from './heartbeat.ts';
import { HeldShards, type ShardHandlers } from './held-shards.ts';
import { type LeaseStore, planRound } from './lease-round.ts';
import { type Lease, type LeaseGuard, readLeases, release, take } from './leases.ts';
import { PlanReads } from './plan-reads.ts';
import { HYSTERESIS } from './shard-moves.ts';

/**
 * Beat well inside the TTL, and look for released shards often (a clean stop frees them at once).
 * Each tick costs one DynamoDB write (the host's heartbeat) and the small reads of plan-reads.ts;
 * `npm run cost` reads it.
 */
export const leaseTickMs = (ttlMs: number) => Math.max(500, Math.min(2000, Math.floor(ttlMs / 3)));

/**
 * The lease loop. A host keeps what it holds by beating its own heartbeat (heartbeat.ts), one
 * write per tick however many shards it holds; a shard's lease is written only when it changes
 * hands. Each tick also reads the leases (one partition) and the live hosts when something moved
 * (plan-reads.ts) and, from them, takes its share of the free shards or hands over what it holds
 * beyond its share (lease-round.ts, shard-plan.ts). A shard whose owner's heartbeat ran out (the
 * host died) or that was released (the host stopped or handed it over) is free and moves to a
 * host below its share.
 *
 * The heartbeat runs on its own: planning, taking shards, resuming their sessions (beside the
 * loop, one shard after the other: held-shards.ts) and handing shards over never delay it. A host
 * that could not beat for nearly the TTL lets every shard go, since the others may be taking them.
 */
export class ShardLeases {
  private readonly held: HeldShards;
  private readonly heartbeat: Heartbeat;
  private timer?: NodeJS.Timeout;
  private wake?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private beatAgain = false;
  private planning?: Promise<void>;
  /** Shard → its owner, when that owner was live, as this host last read the leases. */
  private liveOwners = new Map<number, string>();
  private stopping = false;
  /** Sessions this host ran at its last read of the leases. */
  private sessionsAtRead = 0;
  private readonly reads: PlanReads;

  constructor(
    private readonly cfg: { hostId: string; shardCount: number; ttlMs: number },
    private readonly handlers: ShardHandlers,
    private readonly log: Logger,
    private readonly store: LeaseStore = { take, release, readLeases },
    private readonly presence: Presence = alone(cfg.hostId),
  ) {
    this.reads = new PlanReads(cfg.hostId, presence);
    this.held = new HeldShards({
      hostId: cfg.hostId,
      handlers,
      release: (shard, owner, to) => this.store.release(shard, owner, to),
      bump: () => this.bump(),
      // Its sessions READY (or not) and nothing in motion: said now, not a tick later, to the others
      // (they hand over only when no host is busy) and to whoever watches /api/admin/hosts.
      idle: () => this.beatSoon(),
      log,
    });
    this.heartbeat = new Heartbeat({
      presence,
      staleAfterMs: cfg.ttlMs - leaseTickMs(cfg.ttlMs),
      full: () => this.handlers.full?.() ?? false,
      // Filled up or has room again: the others share the free shards differently.
      fullChanged: async () => {
        this.reads.markDirty();
        await this.bump();
      },
      stale: () => this.held.loseAll(),
      log,
    });
  }

  /** The lease a link of this shard runs under, while this host holds it. */
  guard(shard: number): LeaseGuard | undefined {
    return this.held.guard(shard);
  }

  owned(): number[] {
    return this.held.owned();
  }

  /**
   * Whether another live host holds the shard, as this host last read the leases (command-queues.ts
   * puts a command of such a shard back at once: its holder takes it soon).
   */
  heldElsewhere(shard: number): boolean {
    const owner = this.liveOwners.get(shard);
    return owner !== undefined && owner !== this.cfg.hostId && !this.held.has(shard);
  }

  /** Whether a shard is being taken, resumed or handed over here (the heartbeat tells the others). */
  busy(): boolean {
    return this.held.busy();
  }

  /** One beat and one round at once, so the host comes up holding the shards it can get; then per tick. */
  async start(): Promise<void> {
    await this.heartbeat.beat();
    // A joining host: the others read on their next tick and hand it its share.
    await this.bump();
    await this.plan();
    this.timer = setInterval(() => {
      this.beatSoon();
      this.planTurn();
    }, leaseTickMs(this.cfg.ttlMs));
  }

  /** Beats now, or right after the beat under way (which may have read the state before it changed). */
  private beatSoon(): void {
    if (this.stopping || !this.timer) return;
    if (this.beating) {
      this.beatAgain = true;
      return;
    }
    this.beating = this.heartbeat.beat().finally(() => {
      this.beating = undefined;
      if (this.beatAgain) {
        this.beatAgain = false;
        this.beatSoon();
      }
    });
  }

  /**
   * Plans now unless a plan runs. A watched host that missed a beat is looked at again the moment
   * its heartbeat runs out, not a tick later: its shards are free from then on.
   */
  private planTurn(): void {
    this.planning ??= this.plan().finally(() => {
      this.planning = undefined;
      clearTimeout(this.wake);
      const at = this.reads.wakeAt();
      const tick = leaseTickMs(this.cfg.ttlMs);
      if (at !== undefined && !this.stopping && at - Date.now() < tick)
        this.wake = setTimeout(() => this.planTurn(), Math.max(0, at - Date.now()));
    });
  }

  /** Resolves once every shard's acquire and hand-over started so far has finished. */
  async settled(): Promise<void> {
    await this.held.settled();
  }

  /** Stops beating and acquiring; the shards stay held (and fenced) until `releaseAll`. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.wake);
    await Promise.all([this.beating, this.planning]);
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
    await this.bump();
  }

  private async bump(): Promise<void> {
    await this.reads
      .changed()
      .catch((err: unknown) => this.log.warn({ err }, 'bumping the plan version failed'));
  }

  private async plan(): Promise<void> {
    const { hostId, shardCount } = this.cfg;
    // Without a recent heartbeat the others may count this host dead: it takes nothing.
    if (!this.heartbeat.recent()) return;
    let due: Awaited<ReturnType<PlanReads['due']>>;
    let leases: Lease[];
    let hosts: HostView[];
    // Sessions came or went here (no bump tells): this host reads, and hands over if it must.
    const sessions = this.owned().reduce((n, s) => n + (this.handlers.load?.(s) ?? 0), 0);
    if (Math.abs(sessions - this.sessionsAtRead) >= Math.max(1, (this.sessionsAtRead * HYSTERESIS) / 2))
      this.reads.markDirty();
    try {
      due = await this.reads.due();
      if (!due) return;
      [hosts, leases] = await Promise.all([this.presence.live(), this.store.readLeases()]);
    } catch (err) {
      this.log.error({ err }, 'reading the leases failed');
      this.reads.markDirty();
      return;
    }
    this.sessionsAtRead = sessions;
    const { moved, quiet } = await planRound(
      {
        hostId,
        shardCount,
        held: this.held,
        hosts,
        handlers: this.handlers,
        store: this.store,
        log: this.log,
        stopping: () => this.stopping,
      },
      leases,
    );
    const live = new Set(hosts.map((h) => h.hostId));
    this.liveOwners = new Map(
      leases.flatMap((l) => (l.owner && live.has(l.owner) ? [[l.shard, l.owner] as const] : [])),
    );
    let free = 0;
    for (let shard = 0; shard < shardCount; shard++)
      if (!this.held.has(shard) && !this.liveOwners.has(shard)) free++;
    this.reads.read(due.version, [...live], quiet && !free && !this.busy());
    if (moved || due.why === 'dead host') await this.bump();
  }
}
