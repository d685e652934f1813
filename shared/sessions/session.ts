import type { SessionStatus } from '../events/types.ts';

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
  qr?: string;
  pairingCode?: string;
  shard: number;
  createdAt: string;
  updatedAt: string;
  /** Highest host event time applied, so a late event never rolls the state back. */
  stateAt: number;
  /** Shard lease fence of the last host that wrote the state. */
  fence?: number;
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
    createdAt: s.createdAt,
  };
}
