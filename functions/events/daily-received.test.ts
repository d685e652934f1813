import { describe, expect, it } from 'vitest';
import { CONTACT_ACTIVITY_STEP_MS } from './contact-activity.ts';
import { noteReceived, quietReceived, receivedNotWritten, receivedWaiting } from './daily-received.ts';

describe('daily received counts', () => {
  const t0 = Date.parse('2026-11-26T10:00:00Z');

  it('writes the first, then at most once a minute with what was noted meanwhile', () => {
    expect(noteReceived('t1', 's1', { at: t0, count: 1 })).toEqual({ at: t0, count: 1 });
    expect(noteReceived('t1', 's1', { at: t0 + 10_000, count: 2 })).toBeUndefined();
    expect(noteReceived('t1', 's1', { at: t0 + 30_000, count: 1 })).toBeUndefined();
    expect(noteReceived('t1', 's1', { at: t0 + 60_000, count: 1 })).toEqual({ at: t0 + 60_000, count: 4 });
  });

  it('keeps days, sessions and tenants apart', () => {
    expect(noteReceived('t2', 's1', { at: t0, count: 1 })).toEqual({ at: t0, count: 1 });
    expect(noteReceived('t2', 's2', { at: t0, count: 1 })).toEqual({ at: t0, count: 1 });
    expect(noteReceived('t3', 's1', { at: t0, count: 1 })).toEqual({ at: t0, count: 1 });
    const nextDay = t0 + 86_400_000;
    expect(noteReceived('t2', 's1', { at: nextDay, count: 5 })).toEqual({ at: nextDay, count: 5 });
  });

  it('gives a failed write its count back for the next one', () => {
    const w = noteReceived('t4', 's1', { at: t0, count: 3 });
    expect(w).toEqual({ at: t0, count: 3 });
    receivedNotWritten('t4', 's1', w as { at: number; count: number });
    expect(noteReceived('t4', 's1', { at: t0 + 60_000, count: 1 })).toEqual({ at: t0 + 60_000, count: 4 });
  });

  it('writes a quiet session’s waiting count a minute (wall clock) after it was noted, once', () => {
    const noted = Date.now();
    expect(noteReceived('tq', 's', { at: t0, count: 1 })).toEqual({ at: t0, count: 1 });
    expect(noteReceived('tq', 's', { at: t0 + 1_000, count: 2 })).toBeUndefined();
    expect(receivedWaiting()).toBe(true);
    expect(quietReceived(noted + 1_000).filter((q) => q.tenantId === 'tq')).toEqual([]);
    expect(
      quietReceived(noted + CONTACT_ACTIVITY_STEP_MS + 1_000).filter((q) => q.tenantId === 'tq'),
    ).toEqual([{ tenantId: 'tq', sessionId: 's', received: { at: t0, count: 2 } }]);
    expect(quietReceived(noted + 2 * CONTACT_ACTIVITY_STEP_MS).filter((q) => q.tenantId === 'tq')).toEqual(
      [],
    );
  });
});
