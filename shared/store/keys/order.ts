/*
 * The order key: the one format that sorts stored items by time as a string (the tenant feed, a
 * chat's messages, the delivery log), and the feed's clock.
 */

const TIME_DIGITS = 13;
const timeKey = (ms: number) => String(ms).padStart(TIME_DIGITS, '0');
/** 13-digit epoch ms then the id: sorts by time as a string; also the SSE event id of the feed. */
export const orderKey = (timestampMs: number, id: string) => `${timeKey(timestampMs)}#${id}`;
/** Sorts before every order key from `ms` on (a Query `sk >` bound). */
export const orderKeyAt = (ms: number) => timeKey(Math.max(0, Math.floor(ms)));
/** The time part of an order key, epoch ms. */
export const orderKeyTime = (key: string) => Number(key.slice(0, TIME_DIGITS));
/** An order key as a client hands one back (SSE `Last-Event-ID`): the time, `#`, an id of at most 200. */
export const ORDER_KEY = new RegExp(`^\\d{${TIME_DIGITS}}#[^\\s]{1,200}$`);

let lastFeedAt = 0;
/**
 * Now, as the time a message joins its tenant feed: strictly increasing in this process, so the
 * messages one process stores one after another keep that order in the feed and on the stream
 * (messages stored in the same millisecond would otherwise be ordered by their ids).
 */
export function feedClock(): number {
  lastFeedAt = Math.max(Date.now(), lastFeedAt + 1);
  return lastFeedAt;
}
