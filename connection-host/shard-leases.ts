import type { Logger } from '#shared/log/logger';
import { type Lease, type LeaseGuard, readLeases, release, take } from './leases.ts';
import { PlanReads, type PlanSignals } from './plan-reads.ts';
import { HYSTERESIS } from './shard-moves.ts';
import { heartbeatsAgree, planShards } from './shard-plan.ts';

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

export interface LeaseStore {
  take: typeof take;
  release: typeof release;
  readLeases: typeof readLeases;
}

/** A live host as its heartbeat tells. */
export interface HostView {
  hostId: string;
  /** Past its memory budget: it takes no more shards, the others share the rest. */
  full?: boolean;
  /** Sessions it runs: the hosts share sessions, not shards (shard-plan.ts). */
  sessions?: number;
  /** The shards it held when it beat; hand-overs wait until these agree with the leases. */
  shards?: readonly number[];
  /** Taking, resuming or handing over shards when it beat: its `sessions` are not yet true. */
  busy?: boolean;
}

/**
 * How a host tells the others it is alive, and learns which hosts are; with the plan's version,
 * which tells when to read them all (plan-reads.ts).
 */
export interface Presence extends PlanSignals {
  /** Writes this host's heartbeat. */
  beat(): Promise<void>;
  /** The live hosts (this one among them): every heartbeat. */
  live(): Promise<HostView[]>;
  /** Removes this host's heartbeat: a clean stop. */
  leave(): Promise<void>;
}

/** Without a presence the host believes itself alone and takes every free shard. */
const alone = (hostId: string): Presence => ({
  beat: async () => {},
  live: async () => [{ hostId }],
  leave: async () => {},
  version: async () => 0,
  bump: async () => undefined,
  expiries: async () => new Map(),
});

/**
 * Beat well inside the TTL, and look for released shards often (a clean stop frees them at once).
 * Each tick costs one DynamoDB write (the host's heartbeat) and the small reads of plan-reads.ts;
 * `npm run cost` reads it.
 */
export const leaseTickMs = (ttlMs: number) => Math.max(500, Math.min(2000, Math.floor(ttlMs / 3)));

/** Conditional writes in flight at once while taking shards. */
const TAKE_PARALLEL = 64;

/**
 * The lease loop. A host keeps what it holds by beating its own heartbeat, one write per tick
 * however many shards it holds; a shard's lease is written only when it changes hands. Each tick
 * also reads the leases (one partition) and the live hosts and, from them, takes its share of the
 * free shards or hands over what it holds beyond its share (connection-host/shard-plan.ts). A
 * shard whose owner's heartbeat ran out (the host died) or that was released (the host stopped or
 * handed it over) is free and moves to a host below its share.
 *
 * The heartbeat runs on its own: planning, taking shards, resuming their sessions (beside the
 * loop, one shard after the other) and handing shards over never delay it. A host that could not
 * beat for nearly the TTL lets every shard go, since the others may be taking them.
 */
export class ShardLeases {
  /** Held shard → the fence it is held under. */
  private readonly held = new Map<number, number>();
  /** Held shards being let go: `lost` (another host took it) or `release` (handed over). */
  private readonly leaving = new Map<number, 'lost' | 'release'>();
  /** Each shard's work (resume, stop) in order; a hand-over waits for the resume before it. */
  private readonly work = new Map<number, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private wake?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private planning?: Promise<void>;
  private hosts: HostView[] = [];
  private lastBeatAt = 0;
  private stopping = false;
  private beatFull?: boolean;
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
  }

  /** The lease a link of this shard runs under, while this host holds it. */
  guard(shard: number): LeaseGuard | undefined {
    const fence = this.held.get(shard);
    return fence === undefined ? undefined : { shard, owner: this.cfg.hostId, fence };
  }

  owned(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** Whether a shard is being taken, resumed or handed over here (the heartbeat tells the others). */
  busy(): boolean {
    return this.work.size > 0 || this.leaving.size > 0;
  }

  /** One beat and one round at once, so the host comes up holding the shards it can get; then per tick. */
  async start(): Promise<void> {
    await this.beat();
    // A joining host: the others read on their next tick and hand it its share.
    await this.bump();
    await this.plan();
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => {
        this.beating = undefined;
      });
      this.planTurn();
    }, leaseTickMs(this.cfg.ttlMs));
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
    while (this.work.size) await Promise.all(this.work.values());
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

  private async beat(): Promise<void> {
    const startedAt = Date.now();
    const full = this.handlers.full?.() ?? false;
    try {
      await this.presence.beat();
      this.lastBeatAt = startedAt;
      // Filled up or has room again: the others share the free shards differently.
      if (this.beatFull !== undefined && full !== this.beatFull) {
        this.reads.markDirty();
        await this.bump();
      }
      this.beatFull = full;
    } catch (err) {
      this.log.error({ err }, 'heartbeat failed');
      // The others count this host dead once its last heartbeat runs out: stop before they take over.
      const { ttlMs } = this.cfg;
      if (this.held.size && Date.now() - this.lastBeatAt >= ttlMs - leaseTickMs(ttlMs)) {
        this.log.warn(
          { shards: this.held.size },
          'no heartbeat for nearly the lease TTL: letting every shard go',
        );
        for (const shard of this.held.keys()) if (!this.leaving.has(shard)) this.letGo(shard, 'lost');
      }
    }
  }

  private async plan(): Promise<void> {
    const { shardCount, ttlMs } = this.cfg;
    // Without a recent heartbeat the others may count this host dead: it takes nothing.
    if (Date.now() - this.lastBeatAt >= ttlMs - leaseTickMs(ttlMs)) return;
    let due: Awaited<ReturnType<PlanReads['due']>>;
    let leases: Lease[];
    // Sessions came or went here (no bump tells): this host reads, and hands over if it must.
    const sessions = this.owned().reduce((n, s) => n + (this.handlers.load?.(s) ?? 0), 0);
    if (Math.abs(sessions - this.sessionsAtRead) >= Math.max(1, (this.sessionsAtRead * HYSTERESIS) / 2))
      this.reads.markDirty();
    try {
      due = await this.reads.due();
      if (!due) return;
      [this.hosts, leases] = await Promise.all([this.presence.live(), this.store.readLeases()]);
    } catch (err) {
      this.log.error({ err }, 'reading the leases failed');
      this.reads.markDirty();
      return;
    }
    this.sessionsAtRead = sessions;
    const { moved, quiet } = await this.planFrom(leases);
    const live = new Set(this.hosts.map((h) => h.hostId));
    let free = 0;
    const byShard = new Map(leases.map((l) => [l.shard, l]));
    for (let shard = 0; shard < shardCount; shard++) {
      const owner = byShard.get(shard)?.owner;
      if (!this.held.has(shard) && !(owner && live.has(owner))) free++;
    }
    this.reads.read(due.version, [...live], quiet && !free && !this.busy());
    if (moved || due.why === 'dead host') await this.bump();
  }

  /**
   * Plans from the leases read. Answers whether this host took, released or lost a shard (the
   * others must read again), and whether it found nothing to do with every host at rest.
   */
  private async planFrom(leases: Lease[]): Promise<{ moved: boolean; quiet: boolean }> {
    const { hostId, shardCount } = this.cfg;
    const byShard = new Map(leases.map((l) => [l.shard, l]));
    // A later fence means another host took the shard. An older one is a read that lags this
    // host's own take: the partition is read eventually consistent.
    let lost = false;
    for (const [shard, fence] of this.held) {
      const now = byShard.get(shard);
      if (now && now.fence > fence && !this.leaving.has(shard)) {
        this.letGo(shard, 'lost');
        lost = true;
      }
    }

    // Leases under this host's id that it does not hold (an earlier run under the same id, a
    // release that failed) would count as live to the others forever: freed, they are shared again.
    const strays = leases.filter((l) => l.owner === hostId && !this.held.has(l.shard));
    await Promise.all(
      strays.map((l) =>
        this.store.release(l.shard, hostId).catch((err: unknown) => this.log.warn({ err }, 'release failed')),
      ),
    );
    if (strays.length) return { moved: true, quiet: false };

    // One change at a time: while a shard is being let go, the counts others read are in motion.
    if (this.leaving.size || !this.hosts.length) return { moved: lost, quiet: false };
    const settled = !this.busy() && heartbeatsAgree(hostId, this.hosts, leases);
    const full = this.handlers.full?.() ?? false;
    const plan = planShards({
      me: hostId,
      hosts: this.hosts.map((h) => h.hostId),
      full: [
        ...this.hosts.filter((h) => h.full && h.hostId !== hostId).map((h) => h.hostId),
        ...(full ? [hostId] : []),
      ],
      // What this host holds, as it knows it: the read may lag its own takes.
      leases: [
        ...leases.filter((l) => !this.held.has(l.shard)),
        ...this.owned().map((shard) => ({ shard, owner: hostId })),
      ],
      shardCount,
      sessions: new Map(this.hosts.map((h) => [h.hostId, h.sessions ?? 0])),
      settled,
      load: this.handlers.load?.bind(this.handlers),
      pinned: this.handlers.pinned?.bind(this.handlers),
      groupOf: this.handlers.groupOf?.bind(this.handlers),
    });
    if (plan.release.length)
      this.log.info({ shards: plan.release.length, target: plan.target }, 'handing shards over');
    for (const shard of plan.release) this.letGo(shard, 'release', plan.to.get(shard));
    const wanted = plan.take.filter((s) => !this.held.has(s));
    const before = this.held.size;
    for (let i = 0; i < wanted.length && !this.stopping; i += TAKE_PARALLEL) {
      await Promise.all(
        wanted.slice(i, i + TAKE_PARALLEL).map(async (shard) => {
          const seen = byShard.get(shard);
          try {
            const fence = await this.store.take(shard, hostId, { owner: seen?.owner, fence: seen?.fence });
            if (fence === undefined) return;
            this.held.set(shard, fence);
            this.inOrder(shard, () => this.handlers.acquired(shard));
          } catch (err) {
            this.log.error({ err, shard }, 'lease take failed');
          }
        }),
      );
    }
    const took = this.held.size - before;
    if (took) this.log.info({ took, held: this.held.size, target: plan.target }, 'shards taken');
    const moved = lost || took > 0 || plan.release.length > 0;
    return { moved, quiet: !moved && settled && !plan.take.length };
  }

  /**
   * Stops the shard's work beside the loop; a hand-over then releases the lease for the next host
   * (`to`, when it is meant for one).
   */
  private letGo(shard: number, why: 'lost' | 'release', to?: string): void {
    this.leaving.set(shard, why);
    this.inOrder(shard, async () => {
      try {
        await this.handlers.lost(shard, why);
        if (why === 'release') {
          await this.store.release(shard, this.cfg.hostId, to);
          // Only now is the shard free: the host it is meant for reads on its next tick.
          await this.bump();
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
      .catch((err: unknown) => this.log.error({ err, shard }, 'shard work failed'));
    this.work.set(shard, next);
    void next.then(() => {
      if (this.work.get(shard) === next) this.work.delete(shard);
    });
  }
}
