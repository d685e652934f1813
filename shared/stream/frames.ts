import type { StoredMessage } from '../messages/message.ts';
import { mediaLink } from '../presentation/media-link.ts';
import { resolveSender } from '../presentation/sender.ts';
import { feedKey } from '../store/keys.ts';
import { type FeedEventRow, isFeedEvent } from './feed-event.ts';
import { streamPayload } from './payload.ts';

/*
 * What the SSE feed sends for a row of the tenant feed: an inbound message (with its sender and a
 * media link) or one of the feed's own events, as one SSE frame encoded once for every client.
 */

export interface FeedEvent {
  /** The message's order key: the SSE id, and what `Last-Event-ID` resumes after. */
  id: string;
  data: string;
  /** The whole SSE message, encoded once and written as is to every client. */
  frame: Uint8Array;
}
export type FeedListener = (events: FeedEvent[]) => void;

export type FeedRow = (StoredMessage & { gsi1sk?: string }) | FeedEventRow;

export const keyOf = (m: FeedRow) => m.gsi1sk ?? feedKey(m as StoredMessage);

/** What the stream sends: inbound messages and the feed's own events (feed-event.ts), not outbound messages. */
export const streamed = (row: { direction: string }) =>
  row.direction === 'inbound' || row.direction === 'event';

const encoder = new TextEncoder();

export async function toEvent(tenantId: string, m: FeedRow): Promise<FeedEvent> {
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
