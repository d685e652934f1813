import { LidCache } from '#shared/contacts/lid-cache';
import type { SessionStatus } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import type { Restriction } from '#shared/sessions/restriction';
import { answerCall } from './call-decline.ts';
import type { DriverEvents, DriverLink, LinkEnd, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { Handoff, hostHandoff, putMediaInS3 } from './handoff.ts';
import { Pacer } from './pacer.ts';
import { ProxyRefusedError } from './proxy.ts';
import {
  abortReason,
  ReadyWaiters,
  RuntimeStoppedError,
  SessionEndedError,
  TERMINAL,
} from './ready-waiters.ts';
import { ReconnectTracker } from './reconnect-policy.ts';
import { ReconnectSchedule } from './reconnect-schedule.ts';
import type { RuntimeOptions } from './runtime-options.ts';
import { type HostEventBody, SessionEvents } from './session-events.ts';
import { SESSION_CACHE_BYTES } from './session-memory.ts';
import { ZombieWatch } from './zombie-watch.ts';

/**
 * One session's live link: connects through the driver, reports every state change, reconnects by
 * the documented policy (reconnect-policy.ts), and has a READY link that has gone quiet probed
 * (zombie-watch.ts). What the link reports goes on as host events through session-events.ts; commands
 * wait for READY through ready-waiters.ts.
 */
export class SessionRuntime {
  status: SessionStatus = 'REGISTERING';
  /** The network's latest restriction on new chats, as last reported (docs/sessions.md, "Restrictions"). */
  restriction: Restriction | null = null;
  private link?: DriverLink;
  private readonly reconnects = new ReconnectTracker();
  /** Bumped by every new link: events about the end of an older one are ignored. */
  private generation = 0;
  private stopped = false;
  private ended = false;
  private readonly schedule: ReconnectSchedule;
  private readonly zombie: ZombieWatch;
  private readonly readyWaiters = new ReadyWaiters();
  private endReason?: string;
  /** LID → phone as the network revealed them to this session, kept across links and handed to the driver. */
  private readonly lids = new LidCache({ maxBytes: SESSION_CACHE_BYTES.lids });
  readonly pacer: Pacer;
  private readonly log;
  private readonly events: SessionEvents;

  constructor(
    /** Replaced by the registry when the session's link settings change (a new proxy). */
    public request: LinkRequest,
    private readonly driver: NetworkDriver,
    private readonly opts: RuntimeOptions,
  ) {
    this.pacer = new Pacer(opts.sendIntervalMs);
    this.log = logger.child({ sessionId: request.sessionId });
    this.schedule = new ReconnectSchedule(this.reconnects, opts, this.log);
    const handoff =
      opts.handoff ??
      (opts.emitEvent ? new Handoff({ send: opts.emitEvent, putMedia: putMediaInS3 }) : hostHandoff());
    this.events = new SessionEvents(() => this.request, handoff, this.lids);
    this.zombie = new ZombieWatch(
      opts.zombieIdleMs,
      () => (this.status === 'READY' ? this.link : undefined),
      async (err) => {
        this.log.warn({ err }, 'zombie link: reconnecting');
        await this.detach();
        await this.onClose({ kind: 'transient', reason: `no sign of life: ${err.message}` });
      },
    );
  }

  get sessionId() {
    return this.request.sessionId;
  }

  /** Whether this host still runs the session: checked before every send. */
  async holds(): Promise<boolean> {
    return this.opts.stillHolds ? this.opts.stillHolds() : true;
  }

  /** Whether the runtime has ended for good (a terminal status) or was stopped. */
  get done() {
    return this.stopped;
  }

  /** The reconnect state as session info shows it. */
  get reconnectAttempt() {
    return this.reconnects.attempt;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.events.start();
    await this.open();
    this.zombie.start();
  }

  /**
   * Resolves with the link once the session is READY, however long that takes (reconnects, an
   * outage, linking). Rejects when `timeoutMs` passes (no limit when not given), when `signal`
   * aborts, when the runtime is stopped (`RuntimeStoppedError`: the shard moved or the host is
   * stopping) or when the session ends for good (`SessionEndedError`). A wait that settles leaves
   * nothing behind: only waits under way are held.
   */
  whenReady(timeoutMs?: number, signal?: AbortSignal): Promise<DriverLink> {
    if (this.status === 'READY' && this.link) return Promise.resolve(this.link);
    if (this.stopped) return Promise.reject(this.notComing());
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return this.readyWaiters.wait(
      timeoutMs,
      signal,
      () => new Error(`session ${this.sessionId} not READY (${this.status})`),
    );
  }

  /** Waits for READY under way (each settles and leaves; nothing accumulates). */
  get waitingForReady(): number {
    return this.readyWaiters.size;
  }

  /** Why a wait for READY ends unanswered: the session ended for good, or this host let it go. */
  private notComing(): Error {
    return TERMINAL.has(this.status)
      ? new SessionEndedError(this.sessionId, this.status, this.endReason)
      : new RuntimeStoppedError(this.sessionId);
  }

  /** Closes the socket and keeps auth (shard handed over, host stopping). */
  async stop(): Promise<void> {
    this.halt();
    this.readyWaiters.wake({ error: this.notComing() });
    await this.detach();
    // What the link reported up to its close is on the queue or on disk before the host moves on.
    await this.events.handedOn();
  }

  /** No more attempts or probes on this runtime (stopped, logged out or ended). */
  private halt(): void {
    this.stopped = true;
    this.schedule.cancel();
    this.zombie.stop();
  }

  /**
   * A user's `POST /reconnect`: drops the current link (or the wait for the next attempt) and
   * connects again at once from the stored auth state, with the backoff and the counts reset.
   */
  async reconnectNow(): Promise<void> {
    if (this.stopped) return;
    this.schedule.cancel();
    this.reconnects.reset();
    await this.detach();
    await this.open();
  }

  /** Forgets the current link (its end is not reported) and closes it. */
  private async detach(): Promise<void> {
    this.generation++;
    const link = this.link;
    this.link = undefined;
    await link?.close().catch(() => undefined);
  }

  async logout(): Promise<void> {
    this.halt();
    this.generation++;
    if (this.link)
      await this.link.logout().catch((err) => this.log.warn({ err }, 'logout at network failed'));
    else await this.driver.clearAuth(this.sessionId);
    this.link = undefined;
    this.endReason = 'logged out by request';
    await this.report('LOGGED_OUT', { reason: this.endReason });
    this.finish();
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.stopped;
    const events: DriverEvents = {
      onQr: (qr) => current() && void this.report('QR_READY', { qr }),
      onPairingCode: (code) => current() && void this.report('PAIRING', { pairingCode: code }),
      onOpen: ({ mobile }) => {
        if (!current()) return;
        this.reconnects.opened();
        this.zombie.touch();
        void this.report('READY', { mobile }).then(() => {
          if (current() && this.status === 'READY' && this.link) this.readyWaiters.wake({ link: this.link });
        });
      },
      onClose: (end) => current() && void this.onClose(end),
      onCall: (call) =>
        void answerCall(call, {
          emit: (e) => this.emit(e),
          link: () => this.link,
          rejectsCalls: this.opts.rejectsCalls,
          log: this.log,
        }),
      ...this.events.forwarding(),
      onActivity: () => this.zombie.touch(),
      onRestriction: (restriction) => void this.onRestriction(restriction),
    };
    try {
      const link = await this.driver.connect({ ...this.request, lids: this.lids }, events);
      if (current()) this.link = link;
      else await link.close().catch(() => undefined); // stopped or replaced while connecting
    } catch (err) {
      if (!current()) return;
      // A proxy the guard refuses would be refused again: the session fails with the reason.
      if (err instanceof ProxyRefusedError) await this.onClose({ kind: 'fatal', reason: err.message });
      else await this.onClose({ kind: 'transient', reason: `connect failed: ${(err as Error).message}` });
    }
  }

  private async onClose(end: LinkEnd): Promise<void> {
    const generation = ++this.generation;
    this.link = undefined;
    if (this.stopped) return;
    this.log.info({ end }, 'link closed');
    if (end.kind === 'restart') return this.open();
    const linkLasted = this.reconnects.closed(end);
    if (end.kind === 'logged_out') await this.driver.clearAuth(this.sessionId);
    if (end.kind === 'replaced') {
      const held = this.opts.stillHolds ? await this.opts.stillHolds().catch(() => true) : true;
      // A reconnect or stop while the lease was read has already decided what happens next.
      if (generation !== this.generation || this.stopped) return;
      if (!held) {
        // The shard moved: the new holder logged in. Its host reports the session from now on.
        this.log.warn({ end }, 'replaced after the shard moved away: stopping quietly');
        await this.stop();
        return this.finish();
      }
    }
    const next = this.reconnects.next(end, linkLasted, this.opts.maxFailures);
    return next.kind === 'end' ? this.end(next.status, next.reason) : this.retryLater(next.reason);
  }

  /** RECONNECTING, then the next attempt after the capped, jittered backoff. Never gives up. */
  private async retryLater(reason: string): Promise<void> {
    await this.schedule.later(() => void this.open());
    await this.report('RECONNECTING', { reason });
  }

  /** A terminal status: no more links; the owner forgets this runtime, a later connect starts anew. */
  private async end(status: 'LOGGED_OUT' | 'FAILED' | 'DISCONNECTED', reason: string): Promise<void> {
    this.halt();
    this.endReason = reason;
    await this.schedule.record(undefined);
    await this.report(status, { reason });
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.readyWaiters.wake({ error: this.notComing() });
    this.opts.onEnded?.(this);
  }

  /**
   * Probes the READY link now, however recently it showed life (a send it took went unanswered); a
   * link that fails the probe is closed and reconnected. Resolves once that is decided.
   */
  checkLink(): Promise<void> {
    return this.zombie.check(true);
  }

  /**
   * A restriction, or its end, is news even when the status stays READY: reported as a
   * `session.status` carrying it. A report equal to the one before is not sent again.
   */
  private async onRestriction(restriction: Restriction | null): Promise<void> {
    if (JSON.stringify(restriction) === JSON.stringify(this.restriction)) return;
    this.restriction = restriction;
    this.log.warn({ restriction }, restriction ? 'the network restricted the account' : 'restriction lifted');
    await this.emit({ kind: 'session.status', status: this.status, restriction, fence: this.opts.fence() });
  }

  async report(
    status: SessionStatus,
    extra: { reason?: string; qr?: string; pairingCode?: string; mobile?: string },
  ) {
    this.status = status;
    await this.emit({ kind: 'session.status', status, ...extra, fence: this.opts.fence() });
  }

  /** Hands a host event of this session on (session-events.ts); resolves once it is safe. */
  emit(e: HostEventBody, media?: { key: string; bytes: Uint8Array; mimetype: string }): Promise<void> {
    return this.events.emit(e, media);
  }
}
