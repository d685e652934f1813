import { HostEvent } from '#shared/events/types';
import { sqsHandler } from '#shared/queue/consumer';
import { applyHostEvent } from './apply.ts';

/** SQS (events queue) → store, then webhooks and streams. */
// A session's events apply in order; different sessions' events side by side.
export const handler = sqsHandler(HostEvent, (event) => applyHostEvent(event), {
  groupBy: (e) => `${e.tenantId}:${e.sessionId}`,
});

/** The lane of a raw events-queue body for the local poller (same key as `groupBy`). */
export function eventLane(body: string): string | undefined {
  const e = JSON.parse(body) as { tenantId?: string; sessionId?: string };
  return e.tenantId && e.sessionId ? `${e.tenantId}:${e.sessionId}` : undefined;
}
