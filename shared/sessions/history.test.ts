import { describe, expect, it } from 'vitest';
import { must } from '../must.ts';
import { SESSION_HISTORY_MAX, type StatusChange, withChange } from './history.ts';

describe('a session status history', () => {
  const ready: StatusChange = { status: 'READY', at: 10 };

  it('adds a change in time order, also one that arrives late', () => {
    const h = must(
      withChange([ready], { status: 'RECONNECTING', reason: 'connection lost', at: 20 }),
      'the history with the change',
    );
    expect(withChange(h, { status: 'QR_READY', at: 5 })?.map((c) => c.at)).toEqual([5, 10, 20]);
  });

  it('ignores the same event again and a repeat of the status before it (a rotated QR code)', () => {
    expect(withChange([ready], { status: 'READY', at: 10 })).toBeUndefined();
    expect(withChange([{ status: 'QR_READY', at: 1 }], { status: 'QR_READY', at: 2 })).toBeUndefined();
    // The same status with another reason is news.
    expect(withChange([ready], { status: 'READY', reason: 'restricted', at: 11 })).toHaveLength(2);
  });

  it(`keeps the last ${SESSION_HISTORY_MAX}`, () => {
    let h: StatusChange[] = [];
    for (let at = 0; at < SESSION_HISTORY_MAX + 10; at++)
      h = must(withChange(h, { status: at % 2 ? 'READY' : 'RECONNECTING', at }), `the history at ${at}`);
    expect(h).toHaveLength(SESSION_HISTORY_MAX);
    expect(h[0]?.at).toBe(10);
  });
});
