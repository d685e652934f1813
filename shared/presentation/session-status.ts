import type { SessionStatus } from '../events/types.ts';
import type { Restriction } from '../sessions/restriction.ts';
import { publicRestriction, type Session } from '../sessions/session.ts';
import { unixSeconds } from './unix-seconds.ts';

/**
 * The `session.status` payload: one shape for the webhook event and the SSE feed's event, so a
 * receiver of either reads a session's state the same way.
 */

/** `session.status`: the session's live state changed. */
export function sessionStatusPayload(p: {
  sessionId: string;
  mobid?: string;
  mobile?: string;
  status: SessionStatus;
  reason?: string;
  restriction?: Restriction | null;
  at: number;
}) {
  return {
    event: 'session.status' as const,
    session_id: p.sessionId,
    mobid: p.mobid ?? null,
    mobile_number: p.mobile ?? null,
    status: p.status,
    reason: p.reason ?? null,
    restriction: publicRestriction(p.restriction),
    timestamp: unixSeconds(p.at),
  };
}

/** The `session.status` payload of a stored session's state: the webhook's and the stream's. */
export const sessionStatusOf = (s: Session) =>
  sessionStatusPayload({
    sessionId: s.sessionId,
    mobid: s.mobid,
    mobile: s.mobile_number,
    status: s.status,
    reason: s.reason,
    restriction: s.restriction,
    at: s.stateAt,
  });
