import { describe, expect, it } from 'vitest';
import { fromCapping, fromError463, fromTimelock } from './restrictions.ts';

describe('restriction signals', () => {
  it('an active time-lock is a reachout_timelock with its end', () => {
    const ends = new Date('2026-03-01T10:00:00Z');
    expect(
      fromTimelock({ isActive: true, timeEnforcementEnds: ends, enforcementType: 'BIZ_QUALITY' as never }),
    ).toEqual({ reason: 'reachout_timelock', until: ends.getTime(), detail: 'BIZ_QUALITY' });
    expect(fromTimelock({ isActive: false })).toBeNull();
  });
  it('capping carries the cap, the use and the cycle end; NONE lifts it', () => {
    expect(
      fromCapping({
        total_quota: 50,
        used_quota: 50,
        cycle_end_timestamp: '1772359200',
        capping_status: 'CAPPED' as never,
      }),
    ).toEqual({
      reason: 'message_capping',
      capped: true,
      detail: 'CAPPED',
      cap: 50,
      used: 50,
      until: 1772359200_000,
    });
    expect(fromCapping({ capping_status: 'FIRST_WARNING' as never })?.capped).toBe(false);
    expect(fromCapping({ capping_status: 'NONE' as never })).toBeNull();
  });
  it('a 463 holds new chats closed for an hour', () => {
    expect(fromError463(1000)).toEqual({ reason: 'restricted_new_chats', until: 1000 + 3_600_000 });
  });
});
