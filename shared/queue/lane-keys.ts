/**
 * The keys that keep one session's work in order while different sessions go side by side, written
 * once: a session's host events (the host's emitter, the events consumer's batch groups, the local
 * poller's lanes, a webhook job's first attempts) and its commands (the FIFO group the API and the
 * chatbot send under, which the host reads back as the session, and the local poller's lanes).
 * Two spellings of one lane split a session's work into two lanes that may overtake each other.
 */

/** A session's events: its tenant and id (an id alone may repeat across tenants in tests and imports). */
export const sessionLane = (s: { tenantId: string; sessionId: string }): string =>
  `${s.tenantId}:${s.sessionId}`;

/**
 * The FIFO MessageGroupId of a session's commands: the session id alone. The connection host reads
 * it back as the session (`sessionOfCommandGroup`) to tell its shards' commands from others', and
 * commands already queued carry it, so its spelling is fixed.
 */
export const commandGroup = (sessionId: string): string => sessionId;

/** The session a command's FIFO group names. */
export const sessionOfCommandGroup = (group: string): string => group;

/** The lane of a raw command body for the local poller: its FIFO group, as SQS would order it. */
export function commandLane(body: string): string | undefined {
  const parsed = JSON.parse(body) as { sessionId?: unknown };
  return typeof parsed.sessionId === 'string' ? commandGroup(parsed.sessionId) : undefined;
}

/** The lane of a raw events-queue body for the local poller: the session's (its events in order). */
export function eventLane(body: string): string | undefined {
  const e = JSON.parse(body) as { tenantId?: unknown; sessionId?: unknown };
  return typeof e.tenantId === 'string' && e.tenantId && typeof e.sessionId === 'string' && e.sessionId
    ? sessionLane({ tenantId: e.tenantId, sessionId: e.sessionId })
    : undefined;
}
