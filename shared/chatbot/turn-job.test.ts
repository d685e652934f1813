import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../messages/content.ts';
import { notForChatbot } from './turn-job.ts';

const now = 1_763_772_000_000;
const msg = (m: Partial<InboundMessage> = {}): InboundMessage => ({
  id: 'M1',
  chatId: '15550001111',
  senderPhone: '15550001111',
  kind: 'text',
  text: 'hello',
  timestampMs: now - 1000,
  ...m,
});

describe('notForChatbot', () => {
  it('lets a fresh 1:1 text message through', () => {
    expect(notForChatbot(msg(), now, 300)).toBeUndefined();
    expect(
      notForChatbot(msg({ text: undefined, kind: 'image', caption: 'price?' }), now, 300),
    ).toBeUndefined();
  });

  it('refuses groups, broadcasts, backlog, old messages and messages without text', () => {
    expect(notForChatbot(msg({ groupId: '1203@g.us', chatId: '1203@g.us' }), now, 300)).toBe('group');
    expect(notForChatbot(msg({ chatId: 'status@broadcast' }), now, 300)).toBe('broadcast');
    expect(notForChatbot(msg({ backlog: true }), now, 300)).toBe('backlog');
    expect(notForChatbot(msg({ timestampMs: now - 301_000 }), now, 300)).toBe('too old');
    expect(notForChatbot(msg({ text: '  ' }), now, 300)).toBe('no text');
    expect(notForChatbot(msg({ kind: 'decrypt_failed', text: undefined }), now, 300)).toBe('undecryptable');
  });
});
