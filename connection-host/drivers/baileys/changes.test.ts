import { WAMessageStubType } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { changeOfUpdate } from './changes.ts';

const key = { remoteJid: '14155550100@s.whatsapp.net', id: 'T1', fromMe: false };

describe('changeOfUpdate', () => {
  it('a revoke stub is a deletion in the sender’s chat', () => {
    const u = { key, update: { message: null, messageStubType: WAMessageStubType.REVOKE } };
    expect(changeOfUpdate(u)).toEqual({
      messageId: 'T1',
      chatId: '14155550100',
      change: 'deleted',
      fromMe: false,
    });
  });

  it('an edited text or caption is an edit with the new words', () => {
    const text = { key, update: { message: { editedMessage: { message: { conversation: 'new' } } } } };
    expect(changeOfUpdate(text)).toMatchObject({ change: 'edited', text: 'new' });
    const caption = {
      key,
      update: { message: { editedMessage: { message: { imageMessage: { caption: 'new caption' } } } } },
    };
    expect(changeOfUpdate(caption)).toMatchObject({ change: 'edited', text: 'new caption' });
  });

  it('receipts, our own messages and unnamed chats are not changes', () => {
    expect(changeOfUpdate({ key, update: { status: 3 } })).toBeUndefined();
    const own = {
      key: { ...key, fromMe: true },
      update: { message: null, messageStubType: WAMessageStubType.REVOKE },
    };
    expect(changeOfUpdate(own)).toBeUndefined();
  });
});
