import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '#shared/messages/message';
import { pendingTurn } from './debounce.ts';
import { turnsOf } from './history.ts';

let t = 1_763_772_000_000;
const m = (messageId: string, direction: 'inbound' | 'outbound', text: string): StoredMessage => ({
  tenantId: 't',
  sessionId: 's',
  messageId,
  direction,
  chatId: '15550001111',
  senderPhone: direction === 'inbound' ? '15550001111' : '919876543210',
  kind: 'text',
  text,
  status: 'delivered',
  timestampMs: t++,
  statusAt: t,
});

// Oldest first as written, newest first as the store answers.
const chat = [
  m('A1', 'inbound', 'hello'),
  m('R1', 'outbound', 'Hi! How can I help?'),
  m('A2', 'inbound', 'is the clinic open'),
  m('A3', 'inbound', 'today?'),
];
const newestFirst = [...chat].reverse();

describe('pendingTurn', () => {
  it('the newest inbound message answers every message since the last reply', () => {
    const turn = pendingTurn(newestFirst, 'A3');
    expect(turn.kind).toBe('answer');
    expect(turn.kind === 'answer' && turn.inbound.map((x) => x.messageId)).toEqual(['A2', 'A3']);
  });

  it('an older message of the burst does nothing', () => {
    expect(pendingTurn(newestFirst, 'A2')).toEqual({ kind: 'superseded', newerMessageId: 'A3' });
    expect(pendingTurn(newestFirst, 'A1')).toEqual({ kind: 'superseded', newerMessageId: 'A3' });
  });

  it('nothing is left to answer once the session wrote after the newest inbound message', () => {
    const newestFirst = [
      { messageId: 'o1', direction: 'outbound' },
      { messageId: 'i1', direction: 'inbound' },
    ] as StoredMessage[];
    expect(pendingTurn(newestFirst, 'i1')).toEqual({ kind: 'answered since' });
  });

  it('a chat without inbound messages is missing', () => {
    expect(pendingTurn([m('R9', 'outbound', 'x')], 'A9')).toEqual({ kind: 'missing' });
  });
});

describe('turnsOf', () => {
  it('alternates roles oldest first, joins a burst into one turn, starts with the customer', () => {
    expect(turnsOf(newestFirst, 10)).toEqual([
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: 'Hi! How can I help?' },
      { role: 'user', text: 'is the clinic open\ntoday?' },
    ]);
    // The last 3 messages start with the session's reply, which is dropped.
    expect(turnsOf(newestFirst, 3)).toEqual([{ role: 'user', text: 'is the clinic open\ntoday?' }]);
  });
});
