import { tenantFeed } from '../messages/repository.ts';
import { type FeedListener, keyOf, streamed, toEvent } from './frames.ts';

/*
 * A resuming client's replay from the store (`Last-Event-ID`), page by page, and the turns that keep
 * many replays of one tenant from taking the process's time.
 */

const REPLAY_PAGE = 500;

/**
 * Inbound messages stored after `after` (an order key), oldest first, page by page, at most `max`
 * of them; answers whether it stopped at `max` with more (possibly) left.
 */
export async function replay(
  tenantId: string,
  after: string,
  forward: FeedListener,
  max: number,
): Promise<boolean> {
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
export async function replayTurn(tenantId: string): Promise<() => void> {
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
