import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { env } from '#shared/config/env';
import type { HostEvent } from '#shared/events/types';
import { type Logger, logger } from '#shared/log/logger';
import { emitRetryDelay } from './backoff.ts';
import { emitEvent } from './emit.ts';
import { EventSpool, type HandoffMedia, type SpoolEntry } from './event-spool.ts';

export interface HandoffDeps {
  /** Puts one event on the events queue. */
  send(event: HostEvent): Promise<void>;
  /** Stores an inbound message's media where its event says (`media.key`). */
  putMedia(media: HandoffMedia): Promise<void>;
  /** Where waiting entries are kept; in memory only when not given (or when the disk refuses). */
  spool?: EventSpool;
  /** The wait before retry `n` (0-based); the host's emit backoff (200 ms doubling to 5 s) by default. */
  retryDelay?: (retry: number) => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * How long one attempt (media, then event) may take before it counts as failed (10 s): a request
   * that hangs (a partition; the SDK sets no timeout of its own) must not hold the hand-off. The
   * attempt left behind may still succeed: the same event then arrives twice, which consumers
   * already take (a message id is stored once, a status only moves forward).
   */
  attemptTimeoutMs?: number;
  log?: Logger;
}

/** A waiting entry: on disk (only its id held here) or, when the disk refused it, in memory. */
type Waiting = { id: string } | { entry: SpoolEntry };

/**
 * The hand-off of host events (and the media of inbound messages) to the events queue and S3, after
 * the network has been told we have them: the network will never hand them to us again, so nothing
 * is given up. An event goes straight out when nothing is waiting; when that fails, it is written to
 * the spool and `deliver` resolves (it is safe on disk), and one drainer hands the spool on, oldest
 * first, retrying each entry with backoff until it goes, however long the outage. While entries wait,
 * new events queue behind them, so a session's order holds from the first failure on and one outage
 * costs one retry loop, not one per event. What a previous run left in the spool is handed on at
 * `start`.
 */
export class Handoff {
  private readonly waiting: Waiting[] = [];
  private draining?: Promise<void>;
  private started?: Promise<void>;
  private readonly retryDelay;
  private readonly sleep;
  private readonly log;

  constructor(private readonly deps: HandoffDeps) {
    this.retryDelay = deps.retryDelay ?? emitRetryDelay;
    this.sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    this.log = (deps.log ?? logger).child({ component: 'handoff' });
  }

  /** How many entries wait to be handed on. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Opens the spool and hands on what an earlier run left there. Once; later calls share the first. */
  start(): Promise<void> {
    this.started ??= (async () => {
      if (!this.deps.spool) return;
      try {
        const left = await this.deps.spool.open();
        if (left.length) this.log.warn({ entries: left.length }, 'handing on events an earlier run spooled');
        this.waiting.unshift(...left.map((id) => ({ id })));
        this.drain();
      } catch (err) {
        this.log.error({ err }, 'event spool unusable: events that wait are kept in memory only');
      }
    })();
    return this.started;
  }

  /**
   * Resolves once the event is on the queue (its media in S3 first) or safe in the spool, to be
   * handed on later. Never rejects.
   */
  async deliver(event: HostEvent, media?: HandoffMedia): Promise<void> {
    if (this.waiting.length === 0) {
      try {
        return await this.handOn({ event, ...(media ? { media } : {}) });
      } catch (err) {
        this.log.warn(
          { err, kind: event.kind, sessionId: event.sessionId },
          'event not handed on yet; spooled',
        );
      }
    }
    await this.keep({ event, ...(media ? { media } : {}) });
  }

  /** Resolves once nothing waits (tests; a host stopping may wait for it within a bound). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async keep(entry: SpoolEntry): Promise<void> {
    let waiting: Waiting = { entry };
    if (this.deps.spool) {
      try {
        waiting = { id: await this.deps.spool.put(entry) };
      } catch (err) {
        this.log.error({ err, kind: entry.event.kind }, 'event not spooled: kept in memory until handed on');
      }
    }
    this.waiting.push(waiting);
    this.drain();
  }

  private drain(): void {
    this.draining ??= this.run().finally(() => {
      this.draining = undefined;
    });
  }

  private async run(): Promise<void> {
    for (let head = this.waiting[0]; head; head = this.waiting[0]) {
      const entry = 'entry' in head ? head.entry : await this.load(head.id);
      if (entry) await this.retryUntilHandedOn(entry);
      this.waiting.shift();
      if ('id' in head)
        await this.deps.spool
          ?.remove(head.id)
          .catch((err) => this.log.warn({ err }, 'spool entry not removed'));
    }
  }

  private async load(id: string): Promise<SpoolEntry | undefined> {
    try {
      return await this.deps.spool?.load(id);
    } catch (err) {
      // A file that cannot be read now never will be: set aside (not deleted) so the rest can go.
      this.log.error({ err, id }, 'spooled event unreadable: set aside as .bad');
      await this.deps.spool?.quarantine(id);
      return undefined;
    }
  }

  private async retryUntilHandedOn(entry: SpoolEntry): Promise<void> {
    let pending = entry;
    for (let retry = 0; ; retry++) {
      try {
        return await this.handOn(pending, () => {
          pending = { event: entry.event }; // the media is stored: a retry sends the event only
        });
      } catch (err) {
        const wait = this.retryDelay(retry);
        this.log.warn(
          { err, kind: entry.event.kind, retry, waitMs: wait },
          'event not handed on yet; retrying',
        );
        await this.sleep(wait);
      }
    }
  }

  private handOn(entry: SpoolEntry, mediaStored?: () => void): Promise<void> {
    const attempt = (async () => {
      if (entry.media) {
        await this.deps.putMedia(entry.media);
        mediaStored?.();
      }
      await this.deps.send(entry.event);
    })();
    const ms = this.deps.attemptTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    });
    attempt.catch(() => undefined); // a late failure of an attempt that timed out is of no interest
    return Promise.race([attempt, timeout]).finally(() => clearTimeout(timer));
  }
}

export const putMediaInS3 = async (media: HandoffMedia) => {
  await s3Client().send(
    new PutObjectCommand({
      Bucket: names.mediaBucket(),
      Key: media.key,
      Body: media.bytes,
      ContentType: media.mimetype,
    }),
  );
};

let shared: Handoff | undefined;

/** The host's one hand-off: the events queue, the media bucket, and the spool under SPOOL_DIR. */
export function hostHandoff(): Handoff {
  const cfg = env();
  shared ??= new Handoff({
    send: emitEvent,
    putMedia: putMediaInS3,
    spool: new EventSpool(cfg.SPOOL_DIR ?? path.join(cfg.DATA_DIR, 'spool')),
  });
  return shared;
}
