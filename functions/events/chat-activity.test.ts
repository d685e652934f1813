import { describe, expect, it } from 'vitest';
import { must } from '../../tests/support/must.ts';
import {
  chatActivityNotWritten,
  chatActivityWaiting,
  noteChatActivity,
  quietChatActivity,
} from './chat-activity.ts';
import { CONTACT_ACTIVITY_STEP_MS } from './contact-activity.ts';

describe('chat activity', () => {
  it('is written for a chat not written yet, a new name, or a minute of message time later, with every count', () => {
    const c = { chatId: '919800000001@s.whatsapp.net', name: 'Asha', at: 1_000_000, count: 1 };
    expect(noteChatActivity('t', 's', c)).toEqual(c);
    // Within the minute: counted, not written.
    expect(noteChatActivity('t', 's', { ...c, at: c.at + 1_000 })).toBeUndefined();
    expect(noteChatActivity('t', 's', { ...c, name: undefined, at: c.at + 2_000, count: 2 })).toBeUndefined();
    // A minute later: one write carrying the three messages counted meanwhile and this one.
    expect(noteChatActivity('t', 's', { ...c, at: c.at + CONTACT_ACTIVITY_STEP_MS })).toEqual({
      ...c,
      at: c.at + CONTACT_ACTIVITY_STEP_MS,
      count: 4,
    });
    // A new name is written at once.
    expect(
      noteChatActivity('t', 's', { ...c, name: 'Asha K', at: c.at + CONTACT_ACTIVITY_STEP_MS + 1 }),
    ).toMatchObject({
      name: 'Asha K',
      count: 1,
    });
    // Another session or tenant has its own chat.
    expect(noteChatActivity('t', 's2', c)).toEqual(c);
    expect(noteChatActivity('t2', 's', c)).toEqual(c);
  });

  it('gives a failed write’s count back to the next write', () => {
    const c = { chatId: 'g1@g.us', at: 5_000_000, count: 3 };
    const w = must(noteChatActivity('t', 's', c), 'an activity to write');
    expect(w.count).toBe(3);
    chatActivityNotWritten('t', 's', w);
    expect(noteChatActivity('t', 's', { ...c, at: c.at + CONTACT_ACTIVITY_STEP_MS, count: 1 })).toMatchObject(
      {
        count: 4,
      },
    );
  });

  it('keeps the newest message’s name when an older message is noted late, and waits for it', () => {
    const c = { chatId: '919800000009@s.whatsapp.net', name: 'Kiran', at: 9_000_000, count: 1 };
    expect(noteChatActivity('t', 's', c)).toEqual(c);
    // The newer message, with a new name, is noted before an older one of the old name.
    expect(noteChatActivity('t', 's', { ...c, name: 'Kiran Rao', at: c.at + 2_000 })).toMatchObject({
      name: 'Kiran Rao',
      count: 1,
    });
    expect(noteChatActivity('t', 's', { ...c, at: c.at + 1_000 })).toBeUndefined();
    // Counted with the next write, under the newer name.
    expect(
      noteChatActivity('t', 's', { ...c, name: undefined, at: c.at + CONTACT_ACTIVITY_STEP_MS * 2 }),
    ).toEqual({
      chatId: c.chatId,
      name: 'Kiran Rao',
      at: c.at + CONTACT_ACTIVITY_STEP_MS * 2,
      count: 2,
    });
  });

  it('writes a quiet chat’s waiting count a minute (wall clock) after it was noted, once', () => {
    const noted = Date.now();
    const c = { chatId: 'quiet@s.whatsapp.net', name: 'Quiet', at: 20_000_000, count: 1 };
    expect(noteChatActivity('tq', 's', c)).toEqual(c);
    expect(noteChatActivity('tq', 's', { ...c, at: c.at + 1_000 })).toBeUndefined();
    expect(chatActivityWaiting()).toBe(true);
    // Not yet a minute: nothing of this chat.
    expect(quietChatActivity(noted + 1_000).filter((q) => q.tenantId === 'tq')).toEqual([]);
    const quiet = quietChatActivity(noted + CONTACT_ACTIVITY_STEP_MS + 1_000).filter(
      (q) => q.tenantId === 'tq',
    );
    expect(quiet).toEqual([
      {
        tenantId: 'tq',
        sessionId: 's',
        activity: { chatId: c.chatId, name: 'Quiet', at: c.at + 1_000, count: 1 },
      },
    ]);
    // Taken: not written twice.
    expect(
      quietChatActivity(noted + 2 * CONTACT_ACTIVITY_STEP_MS).filter((q) => q.tenantId === 'tq'),
    ).toEqual([]);
  });
});
