import { describe, expect, it, vi } from 'vitest';
import { markRead, readReceipts } from './read.ts';

describe('read receipts', () => {
  it('direct chat: keys of the chat, voice notes played', () => {
    const r = readReceipts('+91 98765-43210', [{ id: 'A' }, { id: 'B', voice: true }]);
    expect(r.keys).toEqual([
      { remoteJid: '919876543210@s.whatsapp.net', id: 'A', fromMe: false },
      { remoteJid: '919876543210@s.whatsapp.net', id: 'B', fromMe: false },
    ]);
    expect(r.played).toEqual([{ jid: '919876543210@s.whatsapp.net', ids: ['B'] }]);
  });

  it('group: each key names its sender, by phone or LID; played receipts per sender', () => {
    const g = '120363012345678901@g.us';
    const r = readReceipts(g, [
      { id: 'A', senderPhone: '919876543210', voice: true },
      { id: 'B', senderLid: '123456789012345', voice: true },
      { id: 'C', senderPhone: '919876543210', voice: true },
      { id: 'D', senderPhone: '14155550100' },
    ]);
    expect(r.keys.map((k) => [k.id, k.participant])).toEqual([
      ['A', '919876543210@s.whatsapp.net'],
      ['B', '123456789012345@lid'],
      ['C', '919876543210@s.whatsapp.net'],
      ['D', '14155550100@s.whatsapp.net'],
    ]);
    expect(r.played).toEqual([
      { jid: g, participant: '919876543210@s.whatsapp.net', ids: ['A', 'C'] },
      { jid: g, participant: '123456789012345@lid', ids: ['B'] },
    ]);
  });

  it('sends the read receipts, then the played ones', async () => {
    const calls: string[] = [];
    const sock = {
      readMessages: vi.fn(async () => void calls.push('read')),
      sendReceipt: vi.fn(async () => void calls.push('played')),
    };
    await markRead(sock, '919876543210', [{ id: 'A', voice: true }]);
    expect(calls).toEqual(['read', 'played']);
    expect(sock.sendReceipt).toHaveBeenCalledWith('919876543210@s.whatsapp.net', undefined, ['A'], 'played');
  });
});
