import { env } from '../config/env.ts';
import { logger } from '../log/logger.ts';
import type { StoredMessage } from '../messages/message.ts';
import { feedEntries, feedMessages, tenantFeed } from '../messages/repository.ts';
import { listSessionIds } from '../sessions/repository.ts';
import { feedKey, feedPk, legacyFeedPk, orderKeyAt, orderKeyTime } from '../store/keys.ts';
import { INDEX_SHARDS } from '../store/shards.ts';
import { mediaLink } from '../webhooks/media-link.ts';
import { resolveSender } from '../webhooks/sender.ts';
import { type FeedEventRow, isFeedEvent } from './feed-event.ts';
import { streamPayload } from './payload.ts';

/**
 * Live inbound messages of a tenant for SSE clients. One poller per tenant per process, shared by
 * all of that tenant's clients here, reads the tenant feed (the store every host and consumer
 * writes to), so it works across processes and hosts with nothing else to run. Messages committed
 * slightly out of order are caught by re-reading a look-back window; ids already sent are dropped.
 */

export const POLL_INTERVAL_MS = 200;
/** How far before the newest message each poll looks again. */
export const LOOKBACK_MS = 2_000;
/**
 * How often a poller reads its tenant's session ids again (while they do not cover every feed
 * shard already) and the feed's unsharded partition, which nothing writes since the shards.
 */
export const SHARDS_REFRESH_MS = 5_000;
const REPLAY_PAGE = 500;
const SENT_MEMORY = 5_000;

export interface FeedEvent {
  /** The message's order key: the SSE id, and what `Last-Event-ID` resumes after. */
  id: string;
  data: string;
  /** The whole SSE message, encoded once and written as is to every client. */
  frame: Uint8Array;
}
export type FeedListener = (events: FeedEvent[]) => void;

type FeedRow = (StoredMessage & { gsi1sk?: string }) | FeedEventRow;

const keyOf = (m: FeedRow) => m.gsi1sk ?? feedKey(m as StoredMessage);

/** What the stream sends: inbound messages and the feed's own events (feed-event.ts), not outbound messages. */
const streamed = (row: { direction: string }) => row.direction === 'inbound' || row.direction === 'event';

const encoder = new TextEncoder();

async function toEvent(tenantId: string, m: FeedRow): Promise<FeedEvent> {
  const id = keyOf(m);
  if (isFeedEvent(m)) {
    const data = JSON.stringify(m.payload);
    return { id, data, frame: encoder.encode(`id: ${id}\ndata: ${data}\n\n`) };
  }
  const [sender, url] = await Promise.all([resolveSender(tenantId, m.sessionId, m), mediaLink(tenantId, m)]);
  // JSON.stringify never emits a raw line break, so the data fits on one `data:` line.
  const data = JSON.stringify(streamPayload(m, sender, url, m.analysis));
  return { id, data, frame: encoder.encode(`id: ${id}\ndata: ${data}\n\n`) };
}

class TenantPoller {
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

const pollers = new Map<string, TenantPoller>();

/** Adds a listener to the tenant's poller (started on first use, stopped when its last listener leaves). */
async function listen(tenantId: string, listener: FeedListener): Promise<() => void> {
  let poller = pollers.get(tenantId);
  if (!poller) {
    poller = new TenantPoller(tenantId);
    pollers.set(tenantId, poller);
  }
  const p = poller;
  p.listeners.add(listener);
  await p.ready;
  return () => {
    p.listeners.delete(listener);
    if (p.listeners.size) return;
    p.stop();
    if (pollers.get(tenantId) === p) pollers.delete(tenantId);
  };
}

/**
 * Inbound messages stored after `after` (an order key), oldest first, page by page, at most `max`
 * of them; answers whether it stopped at `max` with more (possibly) left.
 */
async function replay(tenantId: string, after: string, forward: FeedListener, max: number): Promise<boolean> {
  let cursor = after;
  let left = max;
  for (;;) {
    const page = await tenantFeed(tenantId, { after: cursor, limit: REPLAY_PAGE });
    const inbound = page.filter(streamed);
    const taken = inbound.slice(0, left);
    if (taken.length) forward(await Promise.all(taken.map((m) => toEvent(tenantId, m))));
    left -= taken.length;
    if (taken.length < inbound.length) return true;
    const last = page.at(-1);
    if (page.length < REPLAY_PAGE || !last) return false;
    if (left === 0) return true;
    cursor = keyOf(last);
  }
}

/**
 * Replays of one tenant that run at once in this process; its other clients wait their turn (their
 * live events held meanwhile). Many clients resuming from far back at once (anyone holding the
 * portal id) then cost this tenant's streams time, not the process's other work.
 */
export const REPLAYS_PER_TENANT = 2;
const replays = new Map<string, { running: number; waiting: Array<() => void> }>();

/** Waits for a replay turn of the tenant; answers the function that ends it. */
async function replayTurn(tenantId: string): Promise<() => void> {
  let r = replays.get(tenantId);
  if (!r) {
    r = { running: 0, waiting: [] };
    replays.set(tenantId, r);
  }
  const turns = r;
  if (turns.running >= REPLAYS_PER_TENANT) await new Promise<void>((go) => turns.waiting.push(go));
  else turns.running++;
  return () => {
    const next = turns.waiting.shift();
    // The turn passes straight to the next waiter: `running` stays as it is.
    if (next) return next();
    turns.running--;
    if (!turns.running && replays.get(tenantId) === turns) replays.delete(tenantId);
  };
}

/** An open feed: the function that closes it, and whether its replay stopped at the cap. */
export interface OpenedFeed {
  close: () => void;
  /**
   * The replay sent as many events as one request may (`SSE_REPLAY_MAX`) and more may follow: the
   * feed is closed already, and the client resumes after the last id it got (docs/events.md).
   */
  truncated: boolean;
}

/**
 * Opens one client's feed: with `lastEventId`, first what it missed from the store (at most
 * `replayMax` events), then live. Live events arriving during the replay are held and sent after
 * it, minus any the replay sent, so there is neither a gap nor a duplicate. A replay cut at
 * `replayMax` does not go live: the client resumes after the last event it got.
 */
export async function openFeed(
  tenantId: string,
  lastEventId: string | undefined,
  send: (event: FeedEvent) => void,
  replayMax = env().SSE_REPLAY_MAX,
): Promise<OpenedFeed> {
  const sent = new Set<string>();
  const forward: FeedListener = (events) => {
    for (const e of events) {
      if (sent.has(e.id)) continue;
      sent.add(e.id);
      send(e);
    }
    // Duplicates can only come from the replay/live overlap; old ids need not be remembered.
    if (sent.size > SENT_MEMORY)
      for (const id of [...sent].slice(0, sent.size - SENT_MEMORY / 2)) sent.delete(id);
  };
  let held: FeedEvent[] | undefined = [];
  const close = await listen(tenantId, (events) => (held ? held.push(...events) : forward(events)));
  let truncated = false;
  if (lastEventId) {
    const done = await replayTurn(tenantId);
    try {
      truncated = await replay(tenantId, lastEventId, forward, replayMax);
    } catch (err) {
      close();
      throw err;
    } finally {
      done();
    }
  }
  if (truncated) {
    close();
    return { close: () => {}, truncated };
  }
  const pending = held;
  held = undefined;
  forward(pending);
  return { close, truncated };
}

/**
 * Messages of this tenant were just stored (or published) by this process: its local clients get
 * `stored` at once, without a read; without `stored`, the poller reads the store now instead of at
 * the next tick. Other processes still find them by polling, so this only shortens the wait.
 */
export function nudgeTenantFeed(tenantId: string, stored?: StoredMessage[]): void {
  const poller = pollers.get(tenantId);
  if (!poller) return;
  if (stored) poller.offer(stored);
  else poller.nudge();
}

/** For benchmarks and health: tenants polled and clients listening in this process. */
export function feedStats(): { tenants: number; listeners: number } {
  let listeners = 0;
  for (const p of pollers.values()) listeners += p.listeners.size;
  return { tenants: pollers.size, listeners };
}
