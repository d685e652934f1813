import { HostEvent } from '#shared/events/types';
import { sqsBatchHandler } from '#shared/queue/consumer';
import { applyEvents } from './batch.ts';

/** SQS (events queue) → store, then streams, first webhook attempts and the other consumers' jobs. */
// A session's events apply in order (its inbound messages in runs, inbound-messages.ts); different
// sessions' events side by side, their leading runs of inbound messages stored together.
export const handler = sqsBatchHandler(HostEvent, (items) => applyEvents(items.map((i) => i.body)));
