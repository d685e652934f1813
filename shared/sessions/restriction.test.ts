import { describe, expect, it } from 'vitest';
import { blocksNewChats, newChatsRefusal } from './restriction.ts';

describe('blocksNewChats', () => {
  const now = 1_000_000;
  it('holds a time-lock until its end, then lets go', () => {
    const r = { reason: 'reachout_timelock' as const, until: now + 1 };
    expect(blocksNewChats(r, now)).toBe(true);
    expect(blocksNewChats(r, now + 1)).toBe(false);
  });
  it('blocks on a reached cap, not on the warnings before it', () => {
    expect(blocksNewChats({ reason: 'message_capping', cap: 10, used: 8, capped: false }, now)).toBe(false);
    expect(blocksNewChats({ reason: 'message_capping', cap: 10, used: 10, capped: true }, now)).toBe(true);
  });
  it('nothing blocks without a restriction', () => {
    expect(blocksNewChats(undefined, now)).toBe(false);
    expect(blocksNewChats(null, now)).toBe(false);
  });
  it('the refusal names the documented code and the end', () => {
    expect(newChatsRefusal({ reason: 'reachout_timelock', until: Date.UTC(2026, 0, 2) })).toBe(
      "NEW_CHATS_RESTRICTED: the network's reach-out time-lock holds until 2026-01-02T00:00:00.000Z; existing chats still work",
    );
  });
});
