import { LidCache } from '#shared/contacts/lid-cache';
import type { CallUpdate, HostEvent, SessionStatus } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import type { InboundMessage } from '#shared/messages/content';
import type { Restriction } from '#shared/sessions/restriction';
import type { ReconnectState } from '#shared/sessions/session';
import { objectKey } from '#shared/store/object-keys';
import { reconnectDelay } from './backoff.ts';
import type { DriverEvents, DriverLink, LinkEnd, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { Handoff, hostHandoff, putMediaInS3 } from './handoff.ts';
import { Pacer } from './pacer.ts';
import { ProxyRefusedError } from './proxy.ts';
import { SESSION_CACHE_BYTES } from './session-memory.ts';

export interface RuntimeOptions {
  /** Refused logins (`refused` ends) in a row, with no READY between, before the session is FAILED. */
  maxFailures: number;
  zombieIdleMs: number;
  sendIntervalMs: number;
  reconnectBaseMs: number;
  /** The backoff's cap (RECONNECT_MAX_DELAY_MS); 60 s when not given. */
  reconnectMaxDelayMs?: number;
  /** The fence of the shard lease under which this runtime runs. */
  fence: () => number | undefined;
  /**
   * Where host events go: the host's hand-off (events queue, media bucket, spool) unless given.
   * A test may hand in just `emitEvent` instead: a hand-off with that sender and no spool.
   */
  handoff?: Handoff;
  emitEvent?: (event: HostEvent) => Promise<void>;
  /** Where the reconnect state goes (session info shows it); nowhere when not given. */
  recordReconnect?: (state: ReconnectState) => Promise<void>;
  /** Called once when the runtime ends for good (terminal status): its owner forgets it. */
  onEnded?: (rt: SessionRuntime) => void;
  /**
   * Whether this host still runs the session (its epoch, connection-host/session-fence.ts). A 440
   * after the session moved is the new holder's login replacing ours: not ours to answer; and a
   * send is made only while it holds. Held when not given.
   */
  stillHolds?: () => Promise<boolean>;
  /**
   * Whether the session declines calls (`rejectCalls`), asked when one rings: read then, so a
   * change through the API holds from the next call on. Calls ring through when not given.
   */
  rejectsCalls?: () => Promise<boolean>;
}

/** A wait for READY that will not be answered here: the host stopped the runtime (shard moved, stopping). */
export class RuntimeStoppedError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} was stopped on this host`);
    this.name = 'RuntimeStoppedError';
  }
}

/** A wait for READY that will never be answered: the session ended (logged out, failed, disconnected). */
export class SessionEndedError extends Error {
  constructor(
    sessionId: string,
    readonly status: SessionStatus,
    readonly reason?: string,
  ) {
    super(`session ${sessionId} is ${status}${reason ? `: ${reason}` : ''}`);
    this.name = 'SessionEndedError';
  }
}

/** History messages per host event, and their JSON size: under the events queue's 256 KiB. */
const HISTORY_BATCH = 50;
const HISTORY_BATCH_BYTES = 160 * 1024;

/** 440s in a row (no link lasting REPLACED_CALM_MS between) before we stop fighting the other client. */
export const MAX_REPLACED = 3;
const REPLACED_CALM_MS = 5 * 60_000;

/**
 * One session's live link: connects through the driver, reports every state change, reconnects by
 * the documented policy (docs/sessions.md: only logged out, banned, a bad session and a session
 * replaced again and again end it; everything else is retried forever with capped backoff), and
 * probes a READY link that has gone quiet (zombie detection).
 */
export class SessionRuntime {
  status: SessionStatus = 'REGISTERING';
  /** The network's latest restriction on new chats, as last reported (docs/sessions.md, "Restrictions"). */
  restriction: Restriction | null = null;
  private link?: DriverLink;
  /** Reconnect attempts since the last READY: the backoff step, shown in session info. */
  private attempt = 0;
  /** Refused logins since the last READY (the bad-session rule). */
  private refusals = 0;
  /** 440s in a row without a calm link between. */
  private replaced = 0;
  private openedAt?: number;
  private lastDisconnect?: ReconnectState['lastDisconnect'];
  /** Bumped by every new link: events about the end of an older one are ignored. */
  private generation = 0;
  private stopped = false;
  private ended = false;
  private lastActivity = Date.now();
  private reconnectTimer?: NodeJS.Timeout;
  private zombieTimer?: NodeJS.Timeout;
  private readonly readyWaiters = new Set<ReadyWaiter>();
  private endReason?: string;
  /**
   * LID → phone as the network revealed them to this session, kept across links and handed to the
   * driver: a message from a LID carries the phone itself, so consumers need not rely on the mapping
   * event being applied first.
   */
  private readonly lids = new LidCache({ maxBytes: SESSION_CACHE_BYTES.lids });
  readonly pacer: Pacer;
  private readonly log;
  private readonly handoff: Handoff;
  /** Events being handed on: `stop` waits for them (each ends on the queue or in the spool, bounded). */
  private readonly handing = new Set<Promise<void>>();

  constructor(
    /** Replaced by the registry when the session's link settings change (a new proxy). */
    public request: LinkRequest,
    private readonly driver: NetworkDriver,
    private readonly opts: RuntimeOptions,
  ) {
    this.pacer = new Pacer(opts.sendIntervalMs);
    this.log = logger.child({ sessionId: request.sessionId });
    this.handoff =
      opts.handoff ??
      (opts.emitEvent ? new Handoff({ send: opts.emitEvent, putMedia: putMediaInS3 }) : hostHandoff());
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
    return this.attempt;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.handoff.start();
    await this.open();
    this.zombieTimer = setInterval(() => void this.checkZombie(), Math.max(1000, this.opts.zombieIdleMs / 2));
    this.zombieTimer.unref();
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
    return new Promise((resolve, reject) => {
      const waiter: ReadyWaiter = (outcome) => {
        this.readyWaiters.delete(waiter);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome.link) resolve(outcome.link);
        else reject(outcome.error);
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => waiter({ error: new Error(`session ${this.sessionId} not READY (${this.status})`) }),
              timeoutMs,
            );
      const onAbort = () => waiter({ error: abortReason(signal) });
      this.readyWaiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Waits for READY under way (each settles and leaves; nothing accumulates). */
  get waitingForReady(): number {
    return this.readyWaiters.size;
  }

  /** Settles every wait for READY: with the link, or with why it will not come. */
  private wakeWaiters(outcome: { link: DriverLink } | { error: Error }): void {
    for (const w of [...this.readyWaiters]) w(outcome);
  }

  /** Why a wait for READY ends unanswered: the session ended for good, or this host let it go. */
  private notComing(): Error {
    return TERMINAL.has(this.status)
      ? new SessionEndedError(this.sessionId, this.status, this.endReason)
      : new RuntimeStoppedError(this.sessionId);
  }

  /** Closes the socket and keeps auth (shard handed over, host stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.zombieTimer);
    this.wakeWaiters({ error: this.notComing() });
    await this.detach();
    // What the link reported up to its close is on the queue or on disk before the host moves on.
    await Promise.allSettled([...this.handing]);
  }

  /**
   * A user's `POST /reconnect`: drops the current link (or the wait for the next attempt) and
   * connects again at once from the stored auth state, with the backoff and the counts reset.
   */
  async reconnectNow(): Promise<void> {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.attempt = 0;
    this.refusals = 0;
    this.replaced = 0;
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
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.zombieTimer);
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
        this.attempt = 0;
        this.refusals = 0;
        this.openedAt = Date.now();
        this.lastActivity = Date.now();
        void this.report('READY', { mobile }).then(() => {
          if (current() && this.status === 'READY' && this.link) this.wakeWaiters({ link: this.link });
        });
      },
      onClose: (end) => current() && void this.onClose(end),
      onInbound: (message, media, handedOn) => void this.onInbound(message, media).then(handedOn),
      onOwnMessage: (message) => void this.emit({ kind: 'message.own', message }),
      onReceipt: (messageId, status) => void this.emit({ kind: 'message.status', messageId, status }),
      onMessageChange: (change) => void this.emit({ kind: 'message.changed', ...change }),
      onPollVote: (vote) => void this.emit({ kind: 'poll.vote', vote }),
      onSendFailed: (messageId, reason) =>
        void this.emit({ kind: 'message.status', messageId, status: 'failed', reason }),
      onCall: (call) => void this.onCall(call),
      onHistory: (messages, sync) => void this.onHistory(messages, sync),
      onContacts: (contacts) => void this.emit({ kind: 'contacts', contacts }),
      onGroup: (g) => void this.emit({ kind: 'group', ...g }),
      onLidMapping: (lid, phone) => {
        this.lids.set(lid, phone);
        void this.emit({ kind: 'lid.mapping', lid, phone });
      },
      onActivity: () => {
        this.lastActivity = Date.now();
      },
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

  /**
   * Every step of a call is reported; a call that rings a session set to `rejectCalls` is declined
   * at once and reported `rejected` by the session (the events consumer sends `rejectMessage`).
   */
  private async onCall(call: CallUpdate): Promise<void> {
    // The caller is declined while the offer is handed on; the rejection is reported after it.
    const reported = this.emit({ kind: 'call', call });
    if (call.status !== 'offer' || call.group || !this.opts.rejectsCalls) return reported;
    const reject = await this.opts.rejectsCalls().catch((err) => {
      this.log.warn({ err }, 'reading the call setting failed: the call rings through');
      return false;
    });
    const link = this.link;
    if (!reject || !link) return reported;
    try {
      await link.rejectCall(call.callId);
    } catch (err) {
      this.log.warn({ err, callId: call.callId }, 'declining a call failed');
      return reported;
    }
    await reported;
    await this.emit({
      kind: 'call',
      call: { ...call, status: 'rejected', bySession: true, timestampMs: Date.now() },
    });
  }

  /**
   * History messages go on in batches that fit an events-queue message (at most HISTORY_BATCH
   * messages and HISTORY_BATCH_BYTES of JSON each); no media is fetched for them.
   */
  private async onHistory(
    messages: Array<Omit<InboundMessage, 'mediaKey'>>,
    sync: { syncType: string; progress: number | null },
  ): Promise<void> {
    let batch: InboundMessage[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length) await this.emit({ kind: 'history', messages: batch, ...sync });
      batch = [];
      bytes = 0;
    };
    for (const m of messages) {
      const size = Buffer.byteLength(JSON.stringify(m));
      if (batch.length >= HISTORY_BATCH || (batch.length && bytes + size > HISTORY_BATCH_BYTES))
        await flush();
      batch.push({ ...m, history: true });
      bytes += size;
    }
    await flush();
  }

  private async onClose(end: LinkEnd): Promise<void> {
    const generation = ++this.generation;
    this.link = undefined;
    if (this.stopped) return;
    this.log.info({ end }, 'link closed');
    if (end.kind === 'restart') return this.open();
    this.lastDisconnect = { ...(end.code ? { code: end.code } : {}), reason: end.reason, at: Date.now() };
    const linkLasted = this.openedAt ? Date.now() - this.openedAt : 0;
    this.openedAt = undefined;
    switch (end.kind) {
      case 'logged_out':
        await this.driver.clearAuth(this.sessionId);
        return this.end('LOGGED_OUT', end.reason);
      case 'fatal':
        return this.end('FAILED', end.reason);
      case 'replaced': {
        const held = this.opts.stillHolds ? await this.opts.stillHolds().catch(() => true) : true;
        // A reconnect or stop while the lease was read has already decided what happens next.
        if (generation !== this.generation || this.stopped) return;
        if (!held) {
          // The shard moved: the new holder logged in. Its host reports the session from now on.
          this.log.warn({ end }, 'replaced after the shard moved away: stopping quietly');
          await this.stop();
          return this.finish();
        }
        if (linkLasted >= REPLACED_CALM_MS) this.replaced = 0;
        this.replaced++;
        if (this.replaced >= MAX_REPLACED)
          return this.end(
            'DISCONNECTED',
            `${end.reason}; replaced ${this.replaced} times in a row, so another client is using this session: not fighting it (POST /api/sessions/{sessionId}/reconnect takes it back)`,
          );
        return this.retryLater(end.reason);
      }
      case 'refused':
        this.refusals++;
        if (this.refusals >= this.opts.maxFailures)
          return this.end(
            'FAILED',
            `bad session: the network refused ${this.refusals} logins in a row; last: ${end.reason}`,
          );
        return this.retryLater(end.reason);
      case 'transient':
        return this.retryLater(end.reason);
    }
  }

  /** RECONNECTING, then the next attempt after the capped, jittered backoff. Never gives up. */
  private async retryLater(reason: string): Promise<void> {
    const delay = reconnectDelay(this.attempt, this.opts.reconnectBaseMs, this.opts.reconnectMaxDelayMs);
    this.attempt++;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.open(), delay);
    await this.recordReconnect(Date.now() + delay);
    await this.report('RECONNECTING', { reason });
  }

  /** A terminal status: no more links; the owner forgets this runtime, a later connect starts anew. */
  private async end(status: 'LOGGED_OUT' | 'FAILED' | 'DISCONNECTED', reason: string): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.zombieTimer);
    this.endReason = reason;
    await this.recordReconnect(undefined);
    await this.report(status, { reason });
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.wakeWaiters({ error: this.notComing() });
    this.opts.onEnded?.(this);
  }

  private async recordReconnect(nextRetryAt: number | undefined): Promise<void> {
    if (!this.opts.recordReconnect) return;
    try {
      await this.opts.recordReconnect({
        attempt: this.attempt,
        ...(nextRetryAt ? { nextRetryAt } : {}),
        ...(this.lastDisconnect ? { lastDisconnect: this.lastDisconnect } : {}),
      });
    } catch (err) {
      this.log.warn({ err }, 'reconnect state not recorded');
    }
  }

  /**
   * Probes the READY link now, however recently it showed life (a send it took went unanswered); a
   * link that fails the probe is closed and reconnected. Resolves once that is decided.
   */
  checkLink(): Promise<void> {
    return this.checkZombie(true);
  }

  private async checkZombie(now = false): Promise<void> {
    if (this.status !== 'READY' || !this.link) return;
    if (!now && Date.now() - this.lastActivity < this.opts.zombieIdleMs) return;
    try {
      await Promise.race([
        this.link.probe(),
        new Promise((_, rej) => setTimeout(() => rej(new Error('probe timed out')), 10_000)),
      ]);
      this.lastActivity = Date.now();
    } catch (err) {
      this.log.warn({ err }, 'zombie link: reconnecting');
      await this.detach();
      await this.onClose({ kind: 'transient', reason: `no sign of life: ${(err as Error).message}` });
    }
  }

  private async onInbound(
    received: Parameters<DriverEvents['onInbound']>[0],
    media?: { bytes: Uint8Array; mimetype: string },
  ): Promise<void> {
    const revealed =
      !received.senderPhone && received.senderLid ? this.lids.get(received.senderLid) : undefined;
    const message = revealed ? { ...received, senderPhone: revealed } : received;
    const mediaKey = media
      ? objectKey('inboundMedia', this.request.tenantId, this.sessionId, message.id)
      : undefined;
    await this.emit(
      { kind: 'message.inbound', message: { ...message, mediaKey } },
      media && mediaKey ? { key: mediaKey, ...media } : undefined,
    );
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

  /**
   * Host events carry the session and a time. Resolves once the event (after its media) is on the
   * events queue or safe in the spool; the hand-off retries until it goes and never rejects.
   */
  async emit(e: HostEventBody, media?: { key: string; bytes: Uint8Array; mimetype: string }): Promise<void> {
    const event = {
      ...e,
      tenantId: this.request.tenantId,
      sessionId: this.sessionId,
      at: Date.now(),
    } as HostEvent;
    const handing = this.handoff.deliver(event, media);
    this.handing.add(handing);
    try {
      await handing;
    } finally {
      this.handing.delete(handing);
    }
  }
}

type ReadyWaiter = (
  outcome: { link: DriverLink; error?: undefined } | { link?: undefined; error: unknown },
) => void;

const TERMINAL = new Set<SessionStatus>(['LOGGED_OUT', 'FAILED', 'DISCONNECTED']);

const abortReason = (signal?: AbortSignal) => signal?.reason ?? new Error('the wait for READY was given up');

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type HostEventBody = DistributiveOmit<HostEvent, 'tenantId' | 'sessionId' | 'at'>;
