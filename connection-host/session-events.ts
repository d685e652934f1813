import type { LidCache } from '#shared/contacts/lid-cache';
import type { HostEvent } from '#shared/events/types';
import type { InboundMessage } from '#shared/messages/content';
import { objectKey } from '#shared/store/object-keys';
import type { DriverEvents } from './drivers/driver.ts';
import type { Handoff } from './handoff.ts';

/**
 * One session's host events: what its link reports, stamped with the session and a time and handed
 * on (handoff.ts: the events queue, the media bucket, the spool). Apart from the runtime's state
 * machine (session-runtime.ts) because none of it changes the session's state: a late report of
 * an older link is still handed on.
 */

/** History messages per host event, and their JSON size: under the events queue's 256 KiB. */
const HISTORY_BATCH = 50;
const HISTORY_BATCH_BYTES = 160 * 1024;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type HostEventBody = DistributiveOmit<HostEvent, 'tenantId' | 'sessionId' | 'at'>;

/** The link's reports that only go on as host events. */
export type ForwardedEvents = Pick<
  DriverEvents,
  | 'onInbound'
  | 'onOwnMessage'
  | 'onReceipt'
  | 'onMessageChange'
  | 'onPollVote'
  | 'onSendFailed'
  | 'onHistory'
  | 'onContacts'
  | 'onGroup'
  | 'onLidMapping'
>;

export class SessionEvents {
  /** Events being handed on: `handedOn` waits for them (each ends on the queue or in the spool, bounded). */
  private readonly handing = new Set<Promise<void>>();

  constructor(
    /** The session's link request, read at each event (the registry may replace it). */
    private readonly session: () => { tenantId: string; sessionId: string },
    private readonly handoff: Handoff,
    /**
     * LID → phone as the network revealed them to this session: a message from a LID carries the
     * phone itself, so consumers need not rely on the mapping event being applied first.
     */
    private readonly lids: LidCache,
  ) {}

  start(): Promise<void> {
    return this.handoff.start();
  }

  /**
   * Host events carry the session and a time. Resolves once the event (after its media) is on the
   * events queue or safe in the spool; the hand-off retries until it goes and never rejects.
   */
  async emit(e: HostEventBody, media?: { key: string; bytes: Uint8Array; mimetype: string }): Promise<void> {
    const { tenantId, sessionId } = this.session();
    const event = { ...e, tenantId, sessionId, at: Date.now() } as HostEvent;
    const handing = this.handoff.deliver(event, media);
    this.handing.add(handing);
    try {
      await handing;
    } finally {
      this.handing.delete(handing);
    }
  }

  /** Resolves once every event being handed on is on the queue or on disk. */
  async handedOn(): Promise<void> {
    await Promise.allSettled([...this.handing]);
  }

  forwarding(): ForwardedEvents {
    return {
      onInbound: (message, media, handedOn) => void this.inbound(message, media).then(handedOn),
      onOwnMessage: (message) => void this.emit({ kind: 'message.own', message }),
      onReceipt: (messageId, status) => void this.emit({ kind: 'message.status', messageId, status }),
      onMessageChange: (change) => void this.emit({ kind: 'message.changed', ...change }),
      onPollVote: (vote) => void this.emit({ kind: 'poll.vote', vote }),
      onSendFailed: (messageId, reason) =>
        void this.emit({ kind: 'message.status', messageId, status: 'failed', reason }),
      onHistory: (messages, sync) => void this.history(messages, sync),
      onContacts: (contacts) => void this.emit({ kind: 'contacts', contacts }),
      onGroup: (g) => void this.emit({ kind: 'group', ...g }),
      onLidMapping: (lid, phone) => {
        this.lids.set(lid, phone);
        void this.emit({ kind: 'lid.mapping', lid, phone });
      },
    };
  }

  private async inbound(
    received: Parameters<DriverEvents['onInbound']>[0],
    media?: { bytes: Uint8Array; mimetype: string },
  ): Promise<void> {
    const revealed =
      !received.senderPhone && received.senderLid ? this.lids.get(received.senderLid) : undefined;
    const message = revealed ? { ...received, senderPhone: revealed } : received;
    const { tenantId, sessionId } = this.session();
    const mediaKey = media ? objectKey('inboundMedia', tenantId, sessionId, message.id) : undefined;
    await this.emit(
      { kind: 'message.inbound', message: { ...message, mediaKey } },
      media && mediaKey ? { key: mediaKey, ...media } : undefined,
    );
  }

  /**
   * History messages go on in batches that fit an events-queue message (at most HISTORY_BATCH
   * messages and HISTORY_BATCH_BYTES of JSON each); no media is fetched for them.
   */
  private async history(
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
}
