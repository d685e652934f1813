import type { SessionStatus } from '../events/types.ts';
import { maskUrl } from '../http/mask-url.ts';
import type { Restriction } from './restriction.ts';

export interface Session {
  tenantId: string;
  sessionId: string;
  mobid: string;
  mobile_number?: string;
  name?: string;
  method: 'qr' | 'phone';
  phoneNumber?: string;
  status: SessionStatus;
  dbStatus: 'active' | 'inactive';
  reason?: string;
  /** The network's latest restriction on new chats (docs/sessions.md, "Restrictions"); null once lifted. */
  restriction?: Restriction | null;
  qr?: string;
  pairingCode?: string;
  shard: number;
  createdAt: string;
  updatedAt: string;
  /** Highest host event time applied, so a late event never rolls the state back. */
  stateAt: number;
  /** Shard lease fence of the last host that wrote the state. */
  fence?: number;
  /** Written by the host holding the link when it schedules a reconnect or ends the session. */
  reconnect?: ReconnectState;
  /** Host time of the last `reconnect` write; an older write never replaces a newer one. */
  reconnectAt?: number;
  /** Calls to the account are declined as they ring (docs/sessions.md, "Calls"). */
  rejectCalls?: boolean;
  /** Sent to a caller after a call is declined by `rejectCalls`. */
  rejectMessage?: string;
  /** The proxy the session's link goes through, credentials included: a secret, answered masked only. */
  proxyUrl?: string;
  /** Given at creation: the phone's history of the last `days` is stored at linking (docs/sessions.md). */
  syncHistory?: { days: number };
}

/** Where the host's reconnect loop stands (docs/sessions.md, "Reconnect policy"). */
export interface ReconnectState {
  /** Reconnect attempts since the session was last READY (the attempt under way or next). */
  attempt: number;
  /** When the next attempt starts (epoch ms), while one is scheduled. */
  nextRetryAt?: number;
  /** Why the last link ended: the network's status code when it gave one, and our reason. */
  lastDisconnect?: { code?: number; reason: string; at: number };
}

/** What the API shows of a session. */
export function publicSession(s: Session) {
  return {
    sessionId: s.sessionId,
    mobid: s.mobid,
    mobile_number: s.mobile_number ?? null,
    name: s.name ?? null,
    status: s.status,
    dbStatus: s.dbStatus,
    method: s.method,
    reason: s.reason ?? null,
    restriction: publicRestriction(s.restriction),
    // Reconnect figures count only while the session is reconnecting; the last disconnect stays.
    reconnectAttempt: s.status === 'RECONNECTING' ? (s.reconnect?.attempt ?? 0) : 0,
    nextRetryAt:
      s.status === 'RECONNECTING' && s.reconnect?.nextRetryAt
        ? new Date(s.reconnect.nextRetryAt).toISOString()
        : null,
    lastDisconnect: s.reconnect?.lastDisconnect
      ? {
          code: s.reconnect.lastDisconnect.code ?? null,
          reason: s.reconnect.lastDisconnect.reason,
          at: new Date(s.reconnect.lastDisconnect.at).toISOString(),
        }
      : null,
    rejectCalls: s.rejectCalls ?? false,
    rejectMessage: s.rejectMessage ?? null,
    proxyUrl: s.proxyUrl ? maskUrl(s.proxyUrl) : null,
    syncHistory: s.syncHistory ?? null,
    createdAt: s.createdAt,
  };
}

/** A restriction as the API and webhooks show it: times as ISO strings; null when none. */
export function publicRestriction(r: Restriction | null | undefined) {
  if (!r) return null;
  return {
    reason: r.reason,
    until: r.until ? new Date(r.until).toISOString() : null,
    cap: r.cap ?? null,
    used: r.used ?? null,
    capped: r.capped ?? null,
    detail: r.detail ?? null,
  };
}
