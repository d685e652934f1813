import { HostEvent } from '#shared/events/types';
import { sqsHandler } from '#shared/queue/consumer';
import { applySessionEvents } from './inbound-batch.ts';

/** SQS (events queue) → store, then webhooks and streams. */
// A session's events apply in order (its inbound messages in runs, inbound-batch.ts); different
// sessions' events side by side.
// A lone event takes the same path as a group (an inbound message: one transaction for the message,
// its delivery, contact and chat).
export const handler = sqsHandler(HostEvent, applyAlone, {
  groupBy: (e) => `${e.tenantId}:${e.sessionId}`,
  handleGroup: (items) => applySessionEvents(items.map((i) => i.body)),
});

/** The lane of a raw events-queue body for the local poller (same key as `groupBy`). */
export function eventLane(body: string): string | undefined {
  const e = JSON.parse(body) as { tenantId?: string; sessionId?: string };
  return e.tenantId && e.sessionId ? `${e.tenantId}:${e.sessionId}` : undefined;
}

async function applyAlone(event: HostEvent): Promise<void> {
  const [applied] = await applySessionEvents([event]);
  if (!applied) throw new Error(`${event.kind} not applied; SQS will retry it`);
}
