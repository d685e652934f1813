import type { WACallEvent } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { CallTracker } from './calls.ts';

const call = (status: WACallEvent['status'], extra: Partial<WACallEvent> = {}): WACallEvent => ({
  chatId: '208123456789012@lid',
  from: '208123456789012@lid',
  id: 'CALL1',
  date: new Date(1_763_772_014_000),
  offline: false,
  status,
  ...extra,
});

describe('CallTracker', () => {
  const noLid = () => undefined;

  it('turns an offer into our words: caller digits from caller_pn, its LID, voice or video', () => {
    const t = new CallTracker();
    expect(t.update(call('offer', { callerPn: '14155550100@s.whatsapp.net', isVideo: true }), noLid)).toEqual(
      {
        callId: 'CALL1',
        from: '14155550100',
        fromLid: '208123456789012',
        video: true,
        group: false,
        status: 'offer',
        timestampMs: 1_763_772_014_000,
      },
    );
    expect(t.callerOf('CALL1')).toBe('208123456789012@lid');
  });

  it('a LID caller without caller_pn gets its number from the LIDs the session knows, else null', () => {
    const t = new CallTracker();
    expect(t.update(call('offer'), () => '919800000001')?.from).toBe('919800000001');
    expect(t.update(call('offer', { id: 'CALL2' }), noLid)?.from).toBeNull();
  });

  it('maps the steps: accept, reject, timeout; terminate is missed unless answered, then ended', () => {
    const t = new CallTracker();
    t.update(call('offer'), noLid);
    expect(t.update(call('terminate'), noLid)?.status).toBe('missed');
    t.update(call('offer', { id: 'C2' }), noLid);
    expect(t.update(call('accept', { id: 'C2' }), noLid)?.status).toBe('accepted');
    expect(t.update(call('terminate', { id: 'C2' }), noLid)?.status).toBe('ended');
    expect(t.update(call('reject', { id: 'C3' }), noLid)?.status).toBe('rejected');
    expect(t.update(call('timeout', { id: 'C4' }), noLid)?.status).toBe('missed');
    for (const s of ['ringing', 'preaccept', 'transport', 'relaylatency'] as const)
      expect(t.update(call(s), noLid)).toBeUndefined();
  });
});
