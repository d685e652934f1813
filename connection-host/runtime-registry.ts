import type { HostEvent } from '#shared/events/types';
import { getSession, recordReconnectState } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { shardOf } from '#shared/sessions/shard';
import type { CommandContext } from './commands.ts';
import type { NetworkDriver } from './drivers/driver.ts';
import { emitEvent } from './emit.ts';
import { type LeaseGuard, stillHeld } from './leases.ts';
import { type RuntimeOptions, SessionRuntime } from './session-runtime.ts';

type SessionRef = { tenantId: string; sessionId: string };

export interface RegistryDeps {
  driver: NetworkDriver;
  shardCount: number;
  /** The lease this host holds the shard under, if it holds it. */
  lease(shard: number): LeaseGuard | undefined;
  runtime: Omit<RuntimeOptions, 'fence' | 'onEnded'>;
  readSession?: (tenantId: string, sessionId: string) => Promise<Session | undefined>;
  emitEvent?: (event: HostEvent) => Promise<void>;
}

/**
 * The live runtimes of this host, one per session of its shards. Commands and shard resumes reach
 * sessions only through here, so no session ever gets a second link racing the first.
 */
export class RuntimeRegistry implements CommandContext {
  private readonly runtimes = new Map<string, SessionRuntime>();
  /** Runtimes being created: a resume and a command for the same session must share one. */
  private readonly creating = new Map<string, Promise<SessionRuntime | undefined>>();
  private readonly readSession;
  private readonly emitEvent;

  constructor(private readonly deps: RegistryDeps) {
    this.readSession = deps.readSession ?? getSession;
    this.emitEvent = deps.emitEvent ?? emitEvent;
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
    for (const id of this.runtimes.keys()) if (shardOf(id, this.deps.shardCount) === shard) n++;
    return n;
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
      fence: this.deps.lease(shardOf(ref.sessionId, this.deps.shardCount))?.fence,
    });
  }

  /** Closes the links of one shard's sessions (auth kept) and forgets them: the shard moved away. */
  async stopShard(shard: number): Promise<void> {
    for (const [id, rt] of this.runtimes) {
      if (shardOf(id, this.deps.shardCount) !== shard) continue;
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
    const rt = new SessionRuntime(
      {
        tenantId: session.tenantId,
        sessionId: session.sessionId,
        method: session.method,
        phoneNumber: session.phoneNumber,
        ...(session.proxyUrl ? { proxyUrl: session.proxyUrl } : {}),
        ...(session.syncHistory ? { syncHistory: session.syncHistory } : {}),
        lease: this.deps.lease(session.shard),
      },
      this.deps.driver,
      {
        recordReconnect: (state) =>
          recordReconnectState(
            session.tenantId,
            session.sessionId,
            Date.now(),
            state,
            this.deps.lease(session.shard)?.fence,
          ).then(() => undefined),
        stillHolds: async () => {
          const guard = this.deps.lease(session.shard);
          return guard ? stillHeld(guard) : true;
        },
        rejectsCalls: async () =>
          (await this.readSession(session.tenantId, session.sessionId))?.rejectCalls === true,
        ...this.deps.runtime,
        fence: () => this.deps.lease(session.shard)?.fence,
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
