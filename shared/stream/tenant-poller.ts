import { logger } from '../log/logger.ts';
import type { StoredMessage } from '../messages/message.ts';
import { feedEntries, feedMessages } from '../messages/repository.ts';
import { listSessionIds } from '../sessions/repository.ts';
import { feedPk, legacyFeedPk, orderKeyAt, orderKeyTime } from '../store/keys.ts';
import { INDEX_SHARDS } from '../store/shards.ts';
import { type FeedListener, type FeedRow, keyOf, streamed, toEvent } from './frames.ts';

/*
 * One tenant's poller of the stored feed, shared by all of that tenant's clients in this process
 * (feed.ts starts and stops it). It reads only the feed shards of the tenant's sessions, re-reads a
 * look-back window for messages committed slightly out of order, and drops ids already sent.
 */

export const POLL_INTERVAL_MS = 200;
/** How far before the newest message each poll looks again. */
export const LOOKBACK_MS = 2_000;
/**
 * How often a poller reads its tenant's session ids again (while they do not cover every feed
 * shard already) and the feed's unsharded partition, which nothing writes since the shards.
 */
export const SHARDS_REFRESH_MS = 5_000;

export class TenantPoller {
  readonly listeners = new Set<FeedListener>();
  /** Keys inside the look-back window that were already emitted, with their timestamps. */
  private readonly seen = new Map<string, number>();
  private newestTs = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private polling = false;
  private again = false;
  private failures = 0;
  /** Batches leave in the order they were found, whichever finishes building first. */
  private emitted: Promise<void> = Promise.resolve();
  /** Resolves once the current window is known, so that only later messages count as live. */
  readonly ready: Promise<void>;
  /**
   * The feed shards every poll reads: those of the tenant's sessions, not all `INDEX_SHARDS` (a
   * tenant with 3 sessions reads 3 partitions, not 17). docs/data-model.md, "Reading the feed".
   */
  private readonly shards = new Set<string>();
  /** Shards learnt of since the last refresh (a session's message stored here): read at the next poll. */
  private readonly found = new Set<string>();
  /** When the last refresh started: a shard found later is read from then on, so nothing is missed. */
  private refreshedAt = Date.now();
  private refreshDue = 0;

  /** When the first listener came: what the feed got from then on is live for it, even before the first poll. */
  private readonly createdAt = Date.now();

  constructor(readonly tenantId: string) {
    this.polling = true;
    this.ready = this.poll(false).finally(() => this.settle());
  }

  /** Polls now instead of at the next tick (a message was just stored in this process). */
  nudge(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.run();
  }

  /** Messages this process has just stored: emitted at once, without reading them back. */
  offer(messages: StoredMessage[]): void {
    if (this.stopped) return;
    for (const m of messages) {
      const pk = feedPk(this.tenantId, m.sessionId);
      if (!this.shards.has(pk)) this.found.add(pk);
    }
    this.emit(this.markFresh(messages, keyOf));
  }

  private run(): void {
    this.polling = true;
    void this.poll(true).finally(() => this.settle());
  }

  private settle(): void {
    this.polling = false;
    if (this.again && !this.stopped) {
      this.again = false;
      this.run();
      return;
    }
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), POLL_INTERVAL_MS);
  }

  /** The inbound rows not emitted yet (by their order key), now counted as emitted. */
  private markFresh<R extends { direction: string }>(rows: R[], key: (row: R) => string): R[] {
    const fresh = rows.filter((r) => streamed(r) && !this.seen.has(key(r)));
    for (const r of fresh) {
      const ts = orderKeyTime(key(r));
      this.seen.set(key(r), ts);
      this.newestTs = Math.max(this.newestTs, ts);
    }
    return fresh;
  }

  private emit(rows: FeedRow[]): void {
    if (!rows.length) return;
    const built = Promise.all(rows.map((r) => toEvent(this.tenantId, r)));
    this.emitted = this.emitted
      .then(() => built)
      .then((events) => {
        if (this.stopped) return;
        for (const listener of this.listeners) listener(events);
      })
      .catch((err: unknown) => logger.warn({ err, tenantId: this.tenantId }, 'tenant feed events not built'));
  }

  /**
   * Re-reads the look-back window as keys only (cheap at any rate), then reads the messages of the
   * entries not emitted yet: in one process those were offered already, so usually none.
   */
  private async poll(emit: boolean): Promise<void> {
    try {
      // Anchored at the newest message, but never later than now: a message whose timestamp is
      // ahead of the clock cannot push the window past messages still to come.
      const now = Date.now();
      const start = Math.min(this.newestTs, now) - LOOKBACK_MS;
      const refresh = now >= this.refreshDue ? await this.refreshShards() : undefined;
      const reads = [...this.shards].map((pk) => ({ pk, after: orderKeyAt(start) }));
      // A shard new to this poller, and the unsharded partition, are read from the last refresh
      // on: entries there since then were in no poll's window.
      const since = orderKeyAt(Math.min(start, this.refreshedAt - LOOKBACK_MS));
      const added = [...this.found, ...(refresh?.shards ?? [])].filter((pk) => !this.shards.has(pk));
      for (const pk of new Set(added)) reads.push({ pk, after: since });
      if (refresh) reads.push({ pk: legacyFeedPk(this.tenantId), after: since });
      const entries = await feedEntries(reads);
      for (const pk of added) {
        this.shards.add(pk);
        this.found.delete(pk);
      }
      if (refresh) {
        this.refreshedAt = refresh.at;
        this.refreshDue = refresh.at + SHARDS_REFRESH_MS;
      }
      for (const [k, ts] of this.seen) if (ts < start) this.seen.delete(k);
      const unseen = entries.filter((e) => streamed(e) && !this.seen.has(e.gsi1sk));
      // The first poll learns the window: what was stored before the poller was made is marked, not
      // emitted; what came since (a listener waiting for it, its stream open) is live. Later polls
      // mark what they read (a failed read is tried again at the next poll) and emit what was not
      // offered meanwhile.
      const live = emit ? unseen : unseen.filter((e) => orderKeyTime(e.gsi1sk) >= this.createdAt);
      if (!emit)
        this.markFresh(
          unseen.filter((e) => orderKeyTime(e.gsi1sk) < this.createdAt),
          (e) => e.gsi1sk,
        );
      if (live.length) this.emit(this.markFresh(await feedMessages(live), keyOf));
      this.failures = 0;
    } catch (err) {
      // Log the first failure of a streak, not every 200 ms.
      if (this.failures++ === 0) logger.warn({ err, tenantId: this.tenantId }, 'tenant feed poll failed');
    }
  }

  /**
   * The shards of the tenant's sessions now (none to read when the poller reads every shard
   * already), and when the read started: a session created after that is found by the next one.
   */
  private async refreshShards(): Promise<{ at: number; shards: string[] }> {
    const at = Date.now();
    if (this.shards.size >= INDEX_SHARDS) return { at, shards: [] };
    const ids = await listSessionIds(this.tenantId);
    return { at, shards: ids.map((id) => feedPk(this.tenantId, id)) };
  }
}
