/**
 * When a host reads the leases and every heartbeat: only when something moved. Read each tick,
 * both partitions would cost every host 7 read units for 1,024 leases and, at 1,000 hosts, 20.5
 * for the heartbeats: 13,750 a second in all, on two partitions that each serve 3,000; most ticks
 * nothing changed. So each tick reads only the plan's version (one small item, bumped by a host
 * that took, released or handed over shards, joined, left, filled up, or found another dead) and
 * the heartbeats of the next WATCHED hosts by id (of every other host in a cluster of up to
 * WATCH_ALL_UP_TO), to notice a dead one: a dead host bumps nothing, the hosts watching it notice
 * its heartbeat ran out and bump for it (a watched host that missed a
 * beat is looked at again the moment it runs out, not a tick later). The partitions are read when
 * the version moved, a watched host died, the last read left something in motion (free shards,
 * a host mid-move, this host's own moves), and every FULL_READ_EVERY ticks or a little more (sessions
 * come and go without a bump; the jitter keeps hosts from reading at once).
 */

/** Hosts after this one (by id) whose heartbeats each tick reads, in a cluster of more than WATCH_ALL_UP_TO. */
export const WATCHED = 2;
/**
 * Up to this many hosts, each watches every other: all learn of a death the moment the dead host's
 * heartbeat runs out, not a tick after its watchers (with 8 hosts, taking its shards took 3 s after
 * it ran out, against 1.3 s with 4). At most 7 small reads a tick.
 */
export const WATCH_ALL_UP_TO = 8;
/** How many hosts each one watches in a cluster of `hosts` (itself among them). */
export const watchedCount = (hosts: number): number =>
  hosts <= WATCH_ALL_UP_TO ? Math.max(0, hosts - 1) : WATCHED;

/** Ticks between reads when nothing moved (at 2 s a tick, 30 to 44 s). */
export const FULL_READ_EVERY = 15;

/** What the tick reads besides the partitions: shared/hosts/registry.ts. */
export interface PlanSignals {
  version(): Promise<number>;
  /** Bumps the version; answers the new one (undefined: not known). */
  bump(): Promise<number | undefined>;
  /** When each host's heartbeat runs out (undefined: it has none, it left). */
  expiries(hostIds: readonly string[]): Promise<Map<string, number | undefined>>;
}

export type ReadReason = 'unsettled' | 'version' | 'dead host' | 'periodic';

export class PlanReads {
  private seen?: number;
  private dirty = true;
  private ticks = 0;
  private every: number;
  private watched: string[] = [];
  /** Each watched host's heartbeat expiry as last read. */
  private expiries = new Map<string, number>();
  private wakeTime?: number;

  constructor(
    private readonly me: string,
    private readonly signals: PlanSignals,
    private readonly random: () => number = Math.random,
  ) {
    this.every = this.jittered();
  }

  /**
   * Why this tick must read the leases and heartbeats (undefined: it need not), with the version
   * it saw before, to be marked seen once the read succeeded.
   */
  async due(): Promise<{ why: ReadReason; version: number } | undefined> {
    const version = await this.signals.version();
    if (this.dirty) return { why: 'unsettled', version };
    if (version !== this.seen) return { why: 'version', version };
    if (++this.ticks >= this.every) return { why: 'periodic', version };
    if (!this.watched.length) return undefined;
    const expiries = await this.signals.expiries(this.watched);
    const now = Date.now();
    this.wakeTime = undefined;
    for (const [id, at] of expiries) {
      if (at === undefined || at < now) return { why: 'dead host', version };
      // Not moved since the last tick: the host missed a beat, and may be dead once this passes.
      if (this.expiries.get(id) === at) this.wakeTime = Math.min(this.wakeTime ?? at + 1, at + 1);
      this.expiries.set(id, at);
    }
    return undefined;
  }

  /** When a watched host that missed a beat would be dead: worth a look then, before the next tick. */
  wakeAt(): number | undefined {
    return this.wakeTime;
  }

  /**
   * After a read: the version it went with, the live hosts it saw, and whether everything was at
   * rest (no free shard, no host mid-move, nothing for this host to do). Otherwise the next tick
   * reads again.
   */
  read(version: number, hosts: readonly string[], quiet: boolean): void {
    this.seen = version;
    this.dirty = !quiet;
    this.ticks = 0;
    this.every = this.jittered();
    const others = [...new Set(hosts)].filter((h) => h !== this.me).sort();
    const after = others.filter((h) => h > this.me);
    this.watched = [...after, ...others.filter((h) => h < this.me)].slice(0, watchedCount(others.length + 1));
    this.wakeTime = undefined;
    for (const id of this.expiries.keys()) if (!this.watched.includes(id)) this.expiries.delete(id);
  }

  /** The next tick reads whatever the version says. */
  markDirty(): void {
    this.dirty = true;
  }

  /**
   * This host changed what the others plan on: they read on their next tick. When no other bump
   * came between, this host has seen the new version already and need not read for it.
   */
  async changed(): Promise<void> {
    const next = await this.signals.bump();
    if (next !== undefined && this.seen !== undefined && next === this.seen + 1) this.seen = next;
  }

  private jittered(): number {
    return FULL_READ_EVERY + Math.floor(this.random() * (FULL_READ_EVERY / 2));
  }
}
