import { createHash } from 'node:crypto';
import { queueOwnSend } from '#shared/commands/own-send';
import type { HostEvent } from '#shared/events/types';
import { getSession } from '#shared/sessions/repository';
import type { Session } from '#shared/sessions/session';
import { feedClock } from '#shared/store/keys';
import { publishFeedEvent } from '#shared/stream/feed-event';
import { enqueueWebhook } from '#shared/webhooks/enqueue';

type CallEvent = Extract<HostEvent, { kind: 'call' }>;

/** The `call` webhook payload (docs/events.md, "call"); also the tenant stream's event. */
export interface CallPayload {
  event: 'call';
  session_id: string;
  mobid: string | null;
  call_id: string;
  /** The caller's phone digits; null when the network showed only its LID. */
  from: string | null;
  from_lid: string | null;
  video: boolean;
  group: boolean;
  status: CallEvent['call']['status'];
  /** A `rejected` made by the session's `rejectCalls` setting (not by the phone). */
  by_session: boolean;
  /** When it happened, epoch seconds. */
  timestamp: number;
}

const hashOf = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * Tells one step of a call as a `call` webhook and tenant stream event; a call the session declined
 * by `rejectCalls` gets the session's `rejectMessage`. Idempotent: ids derive from the call and its
 * step, so a repeated event finds the same delivery, feed event, message and command.
 */
export async function applyCall(e: CallEvent): Promise<void> {
  const session = await getSession(e.tenantId, e.sessionId);
  if (!session) return;
  const c = e.call;
  const payload: CallPayload = {
    event: 'call',
    session_id: e.sessionId,
    mobid: session.mobid ?? null,
    call_id: c.callId,
    from: c.from,
    from_lid: c.fromLid ?? null,
    video: c.video,
    group: c.group,
    status: c.status,
    by_session: c.bySession === true,
    timestamp: Math.floor(c.timestampMs / 1000),
  };
  const step = `${e.sessionId}:${c.callId}:${c.status}:${c.bySession ? 'session' : ''}`;
  await Promise.all([
    enqueueWebhook(e.tenantId, e.sessionId, 'call', payload, { dedupKey: `call:${step}` }),
    publishFeedEvent(
      e.tenantId,
      e.sessionId,
      `cal_${hashOf(e.tenantId, step).slice(0, 24)}`,
      { ...payload },
      feedClock(),
    ),
    c.status === 'rejected' && c.bySession && c.from && session.rejectMessage
      ? sendRejectMessage(session, c.from, c.callId, session.rejectMessage)
      : undefined,
  ]);
}

/**
 * The message to a declined caller goes the way every send goes: stored `queued` outbound, then a
 * `send` command on the session's FIFO queue (paced, statuses as usual). Not counted against the
 * monthly send quota: the session sends it by itself, like the chatbot's replies.
 */
async function sendRejectMessage(session: Session, to: string, callId: string, text: string): Promise<void> {
  const h = hashOf(session.tenantId, session.sessionId, callId, 'call-reject');
  await queueOwnSend(session, {
    messageId: `3EB0${h.slice(0, 16).toUpperCase()}`,
    commandId: `cmd_cr${h.slice(16, 46)}`,
    to,
    kind: 'text',
    text,
    content: { kind: 'text', text },
  });
}
