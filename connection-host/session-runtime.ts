import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { LidCache } from '#shared/contacts/lid-cache';
import type { HostEvent, SessionStatus } from '#shared/events/types';
import { logger } from '#shared/log/logger';
import { emitRetryDelay, reconnectDelay } from './backoff.ts';
import type { DriverEvents, DriverLink, LinkEnd, LinkRequest, NetworkDriver } from './drivers/driver.ts';
import { emitEvent } from './emit.ts';
import { Pacer } from './pacer.ts';

export interface RuntimeOptions {
  maxFailures: number;
  zombieIdleMs: number;
  sendIntervalMs: number;
  reconnectBaseMs: number;
  /** The fence of the shard lease under which this runtime runs. */
  fence: () => number | undefined;
  /** Where host events go: the events queue unless a test hands in its own. */
  emitEvent?: (event: HostEvent) => Promise<void>;
}

/**
 * One session's live link: connects through the driver, reports every state change, reconnects by
 * the documented policy, and probes a READY link that has gone quiet (zombie detection).
 */
export class SessionRuntime {
  status: SessionStatus = 'REGISTERING';
  private link?: DriverLink;
  private failures = 0;
  private stopped = false;
  private lastActivity = Date.now();
  private reconnectTimer?: NodeJS.Timeout;
  private zombieTimer?: NodeJS.Timeout;
  private readyWaiters: Array<() => void> = [];
  /**
   * LID → phone as the network revealed them to this session, kept across links and handed to the
   * driver: a message from a LID carries the phone itself, so consumers need not rely on the mapping
   * event being applied first.
   */
  private readonly lids = new LidCache();
  readonly pacer: Pacer;
  private readonly log;

  constructor(
    readonly request: LinkRequest,
    private readonly driver: NetworkDriver,
    private readonly opts: RuntimeOptions,
  ) {
    this.pacer = new Pacer(opts.sendIntervalMs);
    this.log = logger.child({ sessionId: request.sessionId });
  }

  get sessionId() {
    return this.request.sessionId;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.open();
    this.zombieTimer = setInterval(() => void this.checkZombie(), Math.max(1000, this.opts.zombieIdleMs / 2));
    this.zombieTimer.unref();
  }

  /** Resolves when READY, or rejects after `timeoutMs`. */
  whenReady(timeoutMs: number): Promise<DriverLink> {
    if (this.status === 'READY' && this.link) return Promise.resolve(this.link);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`session ${this.sessionId} not READY (${this.status})`)),
        timeoutMs,
      );
      this.readyWaiters.push(() => {
        clearTimeout(t);
        if (this.link) resolve(this.link);
        else reject(new Error('link gone'));
      });
    });
  }

  /** Closes the socket and keeps auth (shard handed over, host stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.zombieTimer);
    await this.link?.close().catch(() => undefined);
    this.link = undefined;
  }

  async logout(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.zombieTimer);
    if (this.link)
      await this.link.logout().catch((err) => this.log.warn({ err }, 'logout at network failed'));
    else await this.driver.clearAuth(this.sessionId);
    this.link = undefined;
    await this.report('LOGGED_OUT', { reason: 'logged out by request' });
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const events: DriverEvents = {
      onQr: (qr) => void this.report('QR_READY', { qr }),
      onPairingCode: (code) => void this.report('PAIRING', { pairingCode: code }),
      onOpen: ({ mobile }) => {
        this.failures = 0;
        this.lastActivity = Date.now();
        void this.report('READY', { mobile }).then(() => {
          for (const w of this.readyWaiters.splice(0)) w();
        });
      },
      onClose: (end) => void this.onClose(end),
      onInbound: (message, media) => void this.onInbound(message, media),
      onReceipt: (messageId, status) => void this.emit({ kind: 'message.status', messageId, status }),
      onSendFailed: (messageId, reason) =>
        void this.emit({ kind: 'message.status', messageId, status: 'failed', reason }),
      onContacts: (contacts) => void this.emit({ kind: 'contacts', contacts }),
      onGroup: (g) => void this.emit({ kind: 'group', ...g }),
      onLidMapping: (lid, phone) => {
        this.lids.set(lid, phone);
        void this.emit({ kind: 'lid.mapping', lid, phone });
      },
      onActivity: () => {
        this.lastActivity = Date.now();
      },
    };
    try {
      this.link = await this.driver.connect({ ...this.request, lids: this.lids }, events);
    } catch (err) {
      await this.onClose({ kind: 'transient', reason: `connect failed: ${(err as Error).message}` });
    }
  }

  private async onClose(end: LinkEnd): Promise<void> {
    this.link = undefined;
    if (this.stopped) return;
    this.log.info({ end }, 'link closed');
    switch (end.kind) {
      case 'restart':
        return this.open();
      case 'logged_out':
        this.stopped = true;
        await this.driver.clearAuth(this.sessionId);
        return this.report('LOGGED_OUT', { reason: end.reason });
      case 'replaced':
        this.stopped = true;
        return this.report('DISCONNECTED', { reason: end.reason });
      case 'fatal':
        this.stopped = true;
        return this.report('FAILED', { reason: end.reason });
      case 'transient': {
        this.failures++;
        if (this.failures > this.opts.maxFailures) {
          this.stopped = true;
          return this.report('FAILED', {
            reason: `gave up after ${this.opts.maxFailures} attempts: ${end.reason}`,
          });
        }
        await this.report('RECONNECTING', { reason: end.reason });
        const delay = reconnectDelay(this.failures - 1, this.opts.reconnectBaseMs);
        this.reconnectTimer = setTimeout(() => void this.open(), delay);
        return;
      }
    }
  }

  private async checkZombie(): Promise<void> {
    if (this.status !== 'READY' || !this.link || Date.now() - this.lastActivity < this.opts.zombieIdleMs)
      return;
    try {
      await Promise.race([
        this.link.probe(),
        new Promise((_, rej) => setTimeout(() => rej(new Error('probe timed out')), 10_000)),
      ]);
      this.lastActivity = Date.now();
    } catch (err) {
      this.log.warn({ err }, 'zombie link: reconnecting');
      const link = this.link;
      this.link = undefined;
      await link?.close().catch(() => undefined);
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
    try {
      let mediaKey: string | undefined;
      if (media) {
        mediaKey = `media/${this.request.tenantId}/${this.sessionId}/${message.id}`;
        await s3Client().send(
          new PutObjectCommand({
            Bucket: names.mediaBucket(),
            Key: mediaKey,
            Body: media.bytes,
            ContentType: media.mimetype,
          }),
        );
      }
      await this.emit({ kind: 'message.inbound', message: { ...message, mediaKey } });
    } catch (err) {
      this.log.error({ err, messageId: message.id }, 'inbound message could not be handed on');
    }
  }

  async report(
    status: SessionStatus,
    extra: { reason?: string; qr?: string; pairingCode?: string; mobile?: string },
  ) {
    this.status = status;
    await this.emit({ kind: 'session.status', status, ...extra, fence: this.opts.fence() });
  }

  /**
   * Host events carry the session and a time. Enqueueing is retried with backoff (the network will
   * not hand us the message again); a final failure is logged, never thrown into the driver.
   */
  async emit(e: HostEventBody): Promise<void> {
    const event = {
      ...e,
      tenantId: this.request.tenantId,
      sessionId: this.sessionId,
      at: Date.now(),
    } as HostEvent;
    for (let attempt = 1; ; attempt++) {
      try {
        return await (this.opts.emitEvent ?? emitEvent)(event);
      } catch (err) {
        if (attempt >= EMIT_ATTEMPTS) {
          this.log.error({ err, kind: e.kind }, 'event could not be enqueued');
          return;
        }
        this.log.warn({ err, kind: e.kind, attempt }, 'event not enqueued yet; retrying');
        await new Promise((r) => setTimeout(r, emitRetryDelay(attempt - 1)));
      }
    }
  }
}

const EMIT_ATTEMPTS = 6;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type HostEventBody = DistributiveOmit<HostEvent, 'tenantId' | 'sessionId' | 'at'>;
