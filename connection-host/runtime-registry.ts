import type { HostEvent, SessionStatus } from '#shared/events/types';
import { getSession, recordReconnectState } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { shardOf } from '#shared/sessions/shard';
import type { CommandContext } from './commands.ts';
import type { NetworkDriver } from './drivers/driver.ts';
import { emitEvent } from './emit.ts';
import type { LeaseGuard } from './leases.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { claimSession, holdsSession } from './session-fence.ts';
import { SessionRuntime } from './session-runtime.ts';

type SessionRef = { tenantId: string; sessionId: string };

const SHARD_CACHE_MAX = 100_000;

export interface RegistryDeps {
  driver: NetworkDriver;
  shardCount: number;
  /** The lease this host holds the shard under, if it holds it. */
  lease(shard: number): LeaseGuard | undefined;
  runtime: Omit<RuntimeOptions, 'fence' | 'onEnded'>;
  readSession?: (tenantId: string, sessionId: string) => Promise<Session | undefined>;
  emitEvent?: (event: HostEvent) => Promise<void>;
  /** The session's epoch (session-fence.ts); the DynamoDB item when not given. */
  fence?: { claim: typeof claimSession; holds: typeof holdsSession };
}

/**
 * The live runtimes of this host, one per session of its shards. Commands and shard resumes reach
 * sessions only through here, so no session ever gets a second link racing the first.
 */
const PAIRING = new Set<SessionStatus>(['REGISTERING', 'QR_READY', 'PAIRING']);

export class RuntimeRegistry implements CommandContext {
  private readonly runtimes = new Map<string, SessionRuntime>();
  /** Runtimes being created: a resume and a command for the same session must share one. */
  private readonly creating = new Map<string, Promise<SessionRuntime | undefined>>();
  private readonly readSession;
  private readonly emitEvent;
  private readonly fence;
  private readonly shards = new Map<string, number>();

  constructor(private readonly deps: RegistryDeps) {
    this.readSession = deps.readSession ?? getSession;
    this.emitEvent = deps.emitEvent ?? emitEvent;
    this.fence = deps.fence ?? { claim: claimSession, holds: holdsSession };
  }

  get(sessionId: string): SessionRuntime | undefined {
    return this.runtimes.get(sessionId);
  }

  /**
   * The session's runtime; with `create`, one is started if the session is active. `known` is the
   * session as just read (consistently) by the caller, which spares a second read.
   */
  runtimeFor(ref: SessionRef, create: boolean, known?: Session): Promise<SessionRuntime | undefined> {
    const found = this.runtimes.get(ref.sessionId);
    // A runtime that has ended is on its way out: a connect gets a fresh one.
    const existing = found && create && found.done ? undefined : found;
    if (existing || !create) return Promise.resolve(existing);
    let pending = this.creating.get(ref.sessionId);
    if (!pending) {
      pending = this.create(ref, known).finally(() => this.creating.delete(ref.sessionId));
      this.creating.set(ref.sessionId, pending);
    }
    return pending;
  }

  /** How many sessions run here, and how many of them are READY (the host's heartbeat tells). */
  counts(): { sessions: number; ready: number } {
    let ready = 0;
    for (const rt of this.runtimes.values()) if (rt.status === 'READY') ready++;
    return { sessions: this.runtimes.size, ready };
  }

  /** Sessions of one shard running here. */
  shardLoad(shard: number): number {
    let n = 0;
    for (const id of this.runtimes.keys()) if (this.shardOf(id) === shard) n++;
    return n;
  }

  /**
   * Whether a session of the shard is being linked (a QR shown, a pairing under way): the shard is
   * not handed over meanwhile, since the link would start over on the next host.
   */
  shardPairing(shard: number): boolean {
    for (const [id, rt] of this.runtimes)
      if (PAIRING.has(rt.status) && this.shardOf(id) === shard) return true;
    return false;
  }

  /** The shard a session belongs to (a stable hash of its id, shared/sessions/shard.ts). */
  shardOf(sessionId: string): number {
    let shard = this.shards.get(sessionId);
    if (shard === undefined) {
      // Asked per shard for every runtime while shards move: hashed once per session.
      if (this.shards.size > SHARD_CACHE_MAX) this.shards.clear();
      shard = shardOf(sessionId, this.deps.shardCount);
      this.shards.set(sessionId, shard);
    }
    return shard;
  }

  /** Whether this host holds the shard now. */
  holdsShard(shard: number): boolean {
    return this.deps.lease(shard) !== undefined;
  }

  forget(sessionId: string): void {
    this.runtimes.delete(sessionId);
  }

  /**
   * A user's reconnect: the live runtime drops its link and connects again at once (backoff reset);
   * a session without one (FAILED, DISCONNECTED, or never started here) gets a fresh runtime.
   */
  async reconnect(ref: SessionRef): Promise<void> {
    const session = await this.readSession(ref.tenantId, ref.sessionId);
    if (session?.dbStatus !== 'active' || session.status === 'LOGGED_OUT')
      throw new Error(`session ${ref.sessionId} is logged out or deleted: it must be linked again`);
    const live = await this.runtimeFor(ref, false);
    // The next link takes the session's settings as they are now (a proxy set or changed).
    if (live) live.request = { ...live.request, proxyUrl: session.proxyUrl };
    if (live && !live.done) await live.reconnectNow();
    else {
      if (live) this.runtimes.delete(ref.sessionId);
      await this.runtimeFor(ref, true, session);
    }
  }

  async logoutUnlinked(ref: SessionRef): Promise<void> {
    await this.deps.driver.clearAuth(ref.sessionId);
    await this.emitEvent({
      kind: 'session.status',
      tenantId: ref.tenantId,
      sessionId: ref.sessionId,
      at: Date.now(),
      status: 'LOGGED_OUT',
      reason: 'logged out by request (no live link: auth state removed here only)',
      fence: this.deps.lease(this.shardOf(ref.sessionId))?.fence,
    });
  }

  /** Closes the links of one shard's sessions (auth kept) and forgets them: the shard moved away. */
  async stopShard(shard: number): Promise<void> {
    for (const [id, rt] of this.runtimes) {
      if (this.shardOf(id) !== shard) continue;
      await rt.stop();
      this.runtimes.delete(id);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((rt) => rt.stop()));
    this.runtimes.clear();
  }

  private async create(ref: SessionRef, known?: Session): Promise<SessionRuntime | undefined> {
    const session = known ?? (await this.readSession(ref.tenantId, ref.sessionId));
    if (session?.dbStatus !== 'active') return undefined;
    const shard = this.shardOf(session.sessionId);
    const lease = this.deps.lease(shard);
    // Raising the session's epoch to this lease's fence fences out the host that ran it before; a
    // later holder's epoch already there means this host is the stale one.
    if (lease && !(await this.fence.claim(session.sessionId, lease))) {
      throw new Error(`session ${session.sessionId} is claimed by a later holder of shard ${shard}`);
    }
    const rt = new SessionRuntime(
      {
        tenantId: session.tenantId,
        sessionId: session.sessionId,
        method: session.method,
        phoneNumber: session.phoneNumber,
        ...(session.proxyUrl ? { proxyUrl: session.proxyUrl } : {}),
        ...(session.syncHistory ? { syncHistory: session.syncHistory } : {}),
        lease,
      },
      this.deps.driver,
      {
        recordReconnect: (state) =>
          recordReconnectState(
            session.tenantId,
            session.sessionId,
            Date.now(),
            state,
            this.deps.lease(shard)?.fence,
          ).then(() => undefined),
        stillHolds: async () => (lease ? this.fence.holds(session.sessionId, lease) : true),
        rejectsCalls: async () =>
          (await this.readSession(session.tenantId, session.sessionId))?.rejectCalls === true,
        ...this.deps.runtime,
        fence: () => this.deps.lease(shard)?.fence,
        // A runtime that ended for good leaves: a later connect or reconnect makes a fresh one.
        onEnded: (ended) => {
          if (this.runtimes.get(ref.sessionId) === ended) this.runtimes.delete(ref.sessionId);
        },
      },
    );
    this.runtimes.set(ref.sessionId, rt);
    await rt.start();
    return rt;
  }
}
