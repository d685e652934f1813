import { feedEventKey, feedPk, orderKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * The tenant stream carries messages and, beside them, a few events that are not messages
 * (`chat.takeover`). Such an event is an item of its own in the tenant feed (gsi1), with
 * `direction: 'event'` so that the stream's pollers, which select by direction, find it in order
 * with the messages, and `type: 'feed-event'` so that the history views, which select messages,
 * leave it out. Its stream data is the stored `payload`, as given.
 */
export interface FeedEventRow {
  direction: 'event';
  type: 'feed-event';
  tenantId: string;
  sessionId: string;
  eventId: string;
  payload: Record<string, unknown>;
  gsi1sk: string;
}

/** Kept a week, like the replay a client may still ask for. */
const FEED_EVENT_TTL_S = 7 * 86_400;

/**
 * Appends an event to the tenant feed once per `eventId` (a repeat finds it and writes nothing).
 * `atMs` orders it among the messages: when it happened, as the feed clock of the writer.
 */
export async function publishFeedEvent(
  tenantId: string,
  sessionId: string,
  eventId: string,
  payload: Record<string, unknown>,
  atMs: number,
): Promise<boolean> {
  const row: FeedEventRow = {
    direction: 'event',
    type: 'feed-event',
    tenantId,
    sessionId,
    eventId,
    payload,
    gsi1sk: orderKey(atMs, eventId),
  };
  return dataTable.put(
    {
      ...feedEventKey(tenantId, eventId),
      gsi1pk: feedPk(tenantId, sessionId),
      ...row,
      expiresAt: Math.floor(Date.now() / 1000) + FEED_EVENT_TTL_S,
    },
    { ifAbsent: true },
  );
}

export const isFeedEvent = (row: { direction: string }): row is FeedEventRow & { direction: 'event' } =>
  row.direction === 'event';
