import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { normaliseContacts, normaliseGroup, normaliseMessage, normaliseOwnMessage } from './normalise.ts';

const msg = (m: Partial<WAMessage> & { key: WAMessage['key'] }): WAMessage => ({
  messageTimestamp: 1_700_000_000,
  ...m,
});

describe('own messages (the business writing from its phone)', () => {
  it('a text the account sent to a customer, by phone or behind a LID', () => {
    const own = normaliseOwnMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'OWN1', fromMe: true },
        message: { conversation: 'I will take this one' },
      }),
    );
    expect(own).toEqual({
      id: 'OWN1',
      chatId: '919876543210',
      kind: 'text',
      text: 'I will take this one',
      timestampMs: 1_700_000_000_000,
    });
    const lid = normaliseOwnMessage(
      msg({
        key: { remoteJid: '555555555555555@lid', id: 'OWN2', fromMe: true },
        message: { conversation: 'x' },
      }),
      (l) => (l === '555555555555555' ? '14155550100' : undefined),
    );
    expect(lid?.chatId).toBe('14155550100');
  });

  it('ignores others’ messages, groups, status broadcasts and protocol messages', () => {
    const k = (remoteJid: string, fromMe: boolean) => ({ remoteJid, id: 'X', fromMe });
    const text = { conversation: 'hi' };
    expect(
      normaliseOwnMessage(msg({ key: k('919876543210@s.whatsapp.net', false), message: text })),
    ).toBeUndefined();
    expect(
      normaliseOwnMessage(msg({ key: k('120363000000000000@g.us', true), message: text })),
    ).toBeUndefined();
    expect(normaliseOwnMessage(msg({ key: k('status@broadcast', true), message: text }))).toBeUndefined();
    expect(
      normaliseOwnMessage(
        msg({
          key: k('919876543210@s.whatsapp.net', true),
          message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } },
        }),
      ),
    ).toBeUndefined();
  });
});

describe('inbound normalisation', () => {
  it('direct text from a phone number', () => {
    const n = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'A1', fromMe: false },
        message: { conversation: 'hello' },
        pushName: 'Asha',
      }),
    );
    expect(n?.message).toEqual({
      id: 'A1',
      chatId: '919876543210',
      senderPhone: '919876543210',
      senderName: 'Asha',
      kind: 'text',
      text: 'hello',
      timestampMs: 1_700_000_000_000,
    });
    expect(n?.media).toBeUndefined();
  });

  it('location, contact cards and polls carry their data, with a summary as text', () => {
    const from = (id: string, message: proto.IMessage) =>
      normaliseMessage(msg({ key: { remoteJid: '919876543210@s.whatsapp.net', id, fromMe: false }, message }))
        ?.message;
    expect(
      from('L1', {
        locationMessage: {
          degreesLatitude: 12.97,
          degreesLongitude: 77.59,
          name: 'Shop',
          address: 'MG Road',
        },
      }),
    ).toMatchObject({
      kind: 'location',
      text: '12.97,77.59',
      location: { latitude: 12.97, longitude: 77.59, name: 'Shop', address: 'MG Road' },
    });
    expect(from('L2', { liveLocationMessage: { degreesLatitude: 1, degreesLongitude: 2 } })).toMatchObject({
      kind: 'location',
      location: { latitude: 1, longitude: 2 },
    });

    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:Asha Rao\nTEL;type=CELL;waid=919876543211:+91 98765 43211\nEND:VCARD';
    expect(from('C1', { contactMessage: { displayName: 'Asha', vcard } })).toMatchObject({
      kind: 'contact',
      text: 'Asha Rao',
      contacts: [{ name: 'Asha Rao', phones: ['919876543211'] }],
    });
    expect(
      from('C2', {
        contactsArrayMessage: {
          displayName: '2 contacts',
          contacts: [{ displayName: 'Asha', vcard }, { displayName: 'Bob' }],
        },
      }),
    ).toMatchObject({
      kind: 'contact',
      text: 'Asha Rao, Bob',
      contacts: [
        { name: 'Asha Rao', phones: ['919876543211'] },
        { name: 'Bob', phones: [] },
      ],
    });

    const options = [{ optionName: 'Mon' }, { optionName: 'Tue' }];
    expect(
      from('P1', { pollCreationMessageV3: { name: 'Which day?', options, selectableOptionsCount: 1 } }),
    ).toMatchObject({
      kind: 'poll',
      text: 'Which day?',
      poll: { question: 'Which day?', options: ['Mon', 'Tue'], multiple: false },
    });
    expect(
      from('P2', { pollCreationMessage: { name: 'Toppings?', options, selectableOptionsCount: 0 } }),
    ).toMatchObject({
      kind: 'poll',
      poll: { question: 'Toppings?', options: ['Mon', 'Tue'], multiple: true },
    });
  });

  it("a list reply carries the chosen row's id; a sticker is media", () => {
    const reply = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'LR1', fromMe: false },
        message: {
          listResponseMessage: {
            title: 'Tuesday',
            description: 'after 5 pm',
            listType: proto.Message.ListResponseMessage.ListType.SINGLE_SELECT,
            singleSelectReply: { selectedRowId: 'day-tue' },
          },
        },
      }),
    );
    expect(reply?.message).toMatchObject({
      kind: 'text',
      text: 'Tuesday',
      listReply: { id: 'day-tue', title: 'Tuesday', description: 'after 5 pm' },
    });
    const sticker = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'ST1', fromMe: false },
        message: { stickerMessage: { mimetype: 'image/webp', fileLength: 1234 } },
      }),
    );
    expect(sticker?.message).toMatchObject({ kind: 'sticker', mimetype: 'image/webp' });
    expect(sticker?.media).toEqual({ mimetype: 'image/webp', fileLength: 1234 });
  });

  it('group image with caption from a LID-only sender', () => {
    const n = normaliseMessage(
      msg({
        key: { remoteJid: '120363012345678901@g.us', id: 'G1', participant: '123456789012345@lid' },
        message: { imageMessage: { caption: 'look', mimetype: 'image/jpeg', fileLength: 2048 } },
      }),
    );
    expect(n?.message).toMatchObject({
      chatId: '120363012345678901@g.us',
      groupId: '120363012345678901@g.us',
      senderPhone: null,
      senderLid: '123456789012345',
      kind: 'image',
      caption: 'look',
      mimetype: 'image/jpeg',
    });
    expect(n?.media).toEqual({ mimetype: 'image/jpeg', fileLength: 2048 });
    expect(n?.lidMapping).toBeUndefined();
  });

  it('group sender with LID and phone alternative; LIDs resolved from what the session knows', () => {
    const both = normaliseMessage(
      msg({
        key: {
          remoteJid: '120363012345678901@g.us',
          id: 'G2',
          participant: '123456789012345@lid',
          participantAlt: '919876543210@s.whatsapp.net',
        },
        message: { extendedTextMessage: { text: 'hi all' } },
      }),
    );
    expect(both?.message).toMatchObject({
      senderPhone: '919876543210',
      senderLid: '123456789012345',
      kind: 'text',
    });
    expect(both?.lidMapping).toEqual({ lid: '123456789012345', phone: '919876543210' });

    const direct = msg({
      key: { remoteJid: '123456789012345@lid', id: 'L1' },
      message: { conversation: 'x' },
    });
    expect(normaliseMessage(direct)?.message).toMatchObject({
      chatId: '123456789012345@lid',
      senderPhone: null,
    });
    expect(
      normaliseMessage(direct, (lid) => (lid === '123456789012345' ? '919876543210' : undefined))?.message,
    ).toMatchObject({ chatId: '919876543210', senderPhone: '919876543210', senderLid: '123456789012345' });
  });

  it('document (with caption wrapper), voice note, wrapped ephemeral text', () => {
    const doc = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'D1' },
        message: {
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                fileName: 'invoice.pdf',
                mimetype: 'application/pdf',
                caption: 'your invoice',
              },
            },
          },
        },
      }),
    );
    expect(doc?.message).toMatchObject({
      kind: 'document',
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
      caption: 'your invoice',
    });
    expect(doc?.media?.mimetype).toBe('application/pdf');

    const voice = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'V1' },
        message: { audioMessage: { ptt: true, mimetype: 'audio/ogg; codecs=opus' } },
      }),
    );
    expect(voice?.message.kind).toBe('voice');

    const eph = normaliseMessage(
      msg({
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'E1' },
        message: { ephemeralMessage: { message: { extendedTextMessage: { text: 'vanishing' } } } },
      }),
    );
    expect(eph?.message).toMatchObject({ kind: 'text', text: 'vanishing' });
  });

  it('skips our own messages, status broadcasts and protocol messages', () => {
    const base = { remoteJid: '919876543210@s.whatsapp.net', id: 'X' };
    expect(
      normaliseMessage(msg({ key: { ...base, fromMe: true }, message: { conversation: 'x' } })),
    ).toBeUndefined();
    expect(
      normaliseMessage(
        msg({ key: { ...base, remoteJid: 'status@broadcast' }, message: { conversation: 'x' } }),
      ),
    ).toBeUndefined();
    expect(normaliseMessage(msg({ key: base, message: { protocolMessage: { type: 0 } } }))).toBeUndefined();
  });

  it('contacts: by phone, or by LID with a phone alternative; LID-only ones left out', () => {
    expect(
      normaliseContacts([
        { id: '919876543210@s.whatsapp.net', name: 'Asha', lid: '123456789012345@lid' },
        { id: '111111111111111@lid', phoneNumber: '14155550100@s.whatsapp.net', notify: 'Bob' },
        { id: '222222222222222@lid', notify: 'unknown' },
      ]),
    ).toEqual([
      { phone: '919876543210', name: 'Asha', lid: '123456789012345' },
      { phone: '14155550100', name: 'Bob', lid: '111111111111111' },
    ]);
  });

  it('a group member known only by LID never gets the LID as its phone', () => {
    const g = normaliseGroup(
      {
        id: '120363000000000001@g.us',
        subject: 'Team',
        owner: undefined,
        participants: [
          { id: '919876543210@s.whatsapp.net' },
          { id: '555555555555555@lid' },
          { id: '888888888888888@lid', phoneNumber: '888888888888888@lid' },
        ],
      },
      (lid) => (lid === '555555555555555' ? '14155550100' : undefined),
    );
    expect(g.participants).toEqual([{ phone: '919876543210' }, { phone: '14155550100' }]);
  });
});

describe('undecryptable messages', () => {
  const CIPHERTEXT = proto.WebMessageInfo.StubType.CIPHERTEXT;
  it('a CIPHERTEXT stub becomes a decrypt_failed placeholder with id, chat, sender and time', () => {
    const n = normaliseMessage(
      msg({
        key: {
          remoteJid: '555555555555555@lid',
          remoteJidAlt: '14155550100@s.whatsapp.net',
          id: 'BADMAC1',
          fromMe: false,
        },
        pushName: 'Asha',
        messageStubType: CIPHERTEXT,
        messageStubParameters: ['Bad MAC'],
      }),
    );
    expect(n).toEqual({
      message: {
        id: 'BADMAC1',
        chatId: '14155550100',
        senderPhone: '14155550100',
        senderLid: '555555555555555',
        senderName: 'Asha',
        kind: 'decrypt_failed',
        timestampMs: 1_700_000_000_000,
      },
      lidMapping: { lid: '555555555555555', phone: '14155550100' },
    });
  });

  it('a stub whose other part decrypted to chat content is that content; own stubs stay out', () => {
    const key = { remoteJid: '14155550100@s.whatsapp.net', id: 'PART1', fromMe: false };
    const partial = normaliseMessage(
      msg({ key, messageStubType: CIPHERTEXT, message: { conversation: 'got through' } }),
    );
    expect(partial?.message).toMatchObject({ kind: 'text', text: 'got through' });
    expect(
      normaliseMessage(msg({ key: { ...key, fromMe: true }, messageStubType: CIPHERTEXT })),
    ).toBeUndefined();
    expect(
      normaliseOwnMessage(msg({ key: { ...key, fromMe: true }, messageStubType: CIPHERTEXT })),
    ).toBeUndefined();
  });
});
