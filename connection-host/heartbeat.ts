/**
 * The host's heartbeat: how it tells the others it is alive, and what it does when it cannot.
 * Apart from the lease loop (shard-leases.ts) because it runs on its own: planning, taking and
 * handing over shards never delay a beat, and a host that could not beat for nearly the TTL lets
 * every shard go, since the others may be taking them.
 */
import type { Logger } from '#shared/log/logger';
import type { PlanSignals } from './plan-reads.ts';

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
export const alone = (hostId: string): Presence => ({
  beat: async () => {},
  live: async () => [{ hostId }],
  leave: async () => {},
  version: async () => 0,
  bump: async () => undefined,
  expiries: async () => new Map(),
});

export interface HeartbeatDeps {
  presence: Presence;
  /** A beat older than this and the others may count the host dead soon. */
  staleAfterMs: number;
  /** Whether this host is past its memory budget (ShardHandlers.full). */
  full(): boolean;
  /** The host filled up or has room again: the others share the free shards differently. */
  fullChanged(): Promise<void>;
  /** No beat for nearly the TTL: every held shard goes. */
  stale(): void;
  log: Logger;
}

export class Heartbeat {
  private lastBeatAt = 0;
  private beatFull?: boolean;

  constructor(private readonly deps: HeartbeatDeps) {}

  /** Whether the last beat is recent enough that the others count this host live. */
  recent(): boolean {
    return Date.now() - this.lastBeatAt < this.deps.staleAfterMs;
  }

  async beat(): Promise<void> {
    const { presence, log } = this.deps;
    const startedAt = Date.now();
    const full = this.deps.full();
    try {
      await presence.beat();
      this.lastBeatAt = startedAt;
      if (this.beatFull !== undefined && full !== this.beatFull) await this.deps.fullChanged();
      this.beatFull = full;
    } catch (err) {
      log.error({ err }, 'heartbeat failed');
      // The others count this host dead once its last heartbeat runs out: stop before they take over.
      if (!this.recent()) this.deps.stale();
    }
  }
}
