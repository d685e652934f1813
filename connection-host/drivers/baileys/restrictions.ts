import type { NewChatMessageCapInfo, ReachoutTimelockState } from '@whiskeysockets/baileys';
import { RESTRICTED_NEW_CHATS_HOLD_MS, type Restriction } from '#shared/sessions/restriction';

/** The network's error on an ack of a message to a chat the account may not start (2026). */
export const NEW_CHAT_RESTRICTED_ERROR = '463';

/** Baileys' reach-out time-lock state → our restriction; `null` when the lock is lifted. */
export function fromTimelock(t: ReachoutTimelockState): Restriction | null {
  if (!t.isActive) return null;
  return {
    reason: 'reachout_timelock',
    ...(t.timeEnforcementEnds ? { until: t.timeEnforcementEnds.getTime() } : {}),
    ...(t.enforcementType ? { detail: t.enforcementType } : {}),
  };
}

/** Baileys' new-chat capping update → our restriction; `null` when no capping applies. */
export function fromCapping(c: NewChatMessageCapInfo): Restriction | null {
  const status = c.capping_status as string | undefined;
  if (!status || status === 'NONE') return null;
  const end = c.cycle_end_timestamp ? Number.parseInt(c.cycle_end_timestamp, 10) * 1000 : undefined;
  return {
    reason: 'message_capping',
    capped: status === 'CAPPED',
    detail: status,
    ...(c.total_quota !== undefined ? { cap: c.total_quota } : {}),
    ...(c.used_quota !== undefined ? { used: c.used_quota } : {}),
    ...(end && Number.isFinite(end) ? { until: end } : {}),
  };
}

/** A 463 carries no end time: new chats are held closed for a while, then a send may try again. */
export function fromError463(now: number): Restriction {
  return { reason: 'restricted_new_chats', until: now + RESTRICTED_NEW_CHATS_HOLD_MS };
}
