import { env } from '../config/env.ts';
import type { StoredMessage } from '../messages/message.ts';
import type { FeedEvent, FeedListener } from './frames.ts';
import { replay, replayTurn } from './replay.ts';
import { TenantPoller } from './tenant-poller.ts';

/**
 * Live inbound messages of a tenant for SSE clients. One poller per tenant per process, shared by
 * all of that tenant's clients here, reads the tenant feed (the store every host and consumer
 * writes to), so it works across processes and hosts with nothing else to run. This file is the
 * door (open, nudge, stats) and drops what a resuming client's replay (replay.ts) and the live
 * events both bring; the poller, which re-reads a look-back window for messages committed slightly
 * out of order, is tenant-poller.ts, and what a row becomes on the wire frames.ts.
 */

export type { FeedEvent } from './frames.ts';

const SENT_MEMORY = 5_000;

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
