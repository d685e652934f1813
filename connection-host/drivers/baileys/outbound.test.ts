import { describe, expect, it } from 'vitest';
import { toVCard } from '#shared/messages/vcard';
import { quotedStub, rawMessage, retryContent, sentWire, toJid, toMessageContent } from './outbound.ts';

describe('outbound mapping', () => {
  const bytes = new Uint8Array([1, 2, 3]);

  it('recipients become JIDs', () => {
    expect(toJid('+91 98765-43210')).toBe('919876543210@s.whatsapp.net');
    expect(toJid('120363012345678901@g.us')).toBe('120363012345678901@g.us');
    expect(toJid('123456789012345@lid')).toBe('123456789012345@lid');
    expect(toJid('919876543210@c.us')).toBe('919876543210@s.whatsapp.net');
    expect(toJid('919876543210:2@c.us')).toBe('919876543210:2@s.whatsapp.net');
    expect(toJid('status')).toBe('status@broadcast');
    expect(() => toJid('not a number')).toThrow();
    expect(() => toJid('98765')).toThrow();
  });

  it('maps every content kind', () => {
    expect(toMessageContent({ kind: 'text', text: 'hi' })).toEqual({ text: 'hi' });
    const image = toMessageContent({ kind: 'image', caption: 'cap' }, { bytes, mimetype: 'image/png' });
    expect(image).toMatchObject({ caption: 'cap', mimetype: 'image/png' });
    expect(Buffer.isBuffer((image as { image: Buffer }).image)).toBe(true);
    expect(
      toMessageContent({ kind: 'voice', durationSeconds: 7.4 }, { bytes, mimetype: 'audio/mpeg' }),
    ).toMatchObject({
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
      seconds: 7,
    });
    expect(toMessageContent({ kind: 'audio' }, { bytes, mimetype: 'audio/mpeg' })).toMatchObject({
      ptt: false,
      mimetype: 'audio/mpeg',
    });
    expect(
      toMessageContent({ kind: 'pdf', fileName: 'a.pdf' }, { bytes, mimetype: 'application/octet-stream' }),
    ).toMatchObject({
      fileName: 'a.pdf',
      mimetype: 'application/pdf',
    });
    expect(toMessageContent({ kind: 'pdf' }, { bytes, mimetype: 'application/pdf' })).toMatchObject({
      fileName: 'document.pdf',
    });
    expect(toMessageContent({ kind: 'document' }, { bytes, mimetype: 'text/csv' })).toMatchObject({
      fileName: 'document',
      mimetype: 'text/csv',
    });
    expect(
      toMessageContent({
        kind: 'buttons',
        text: 'Pick one',
        buttons: [
          { id: 'a', title: 'Yes' },
          { id: 'b', title: 'No' },
        ],
      }),
    ).toEqual({ text: 'Pick one\n\n1. Yes\n2. No' });
    expect(() => toMessageContent({ kind: 'video' })).toThrow(/media/);
  });

  it('builds location, contact (vCards) and poll content', () => {
    expect(
      toMessageContent({
        kind: 'location',
        location: { latitude: 12.9716, longitude: 77.5946, name: 'Shop', address: 'MG Road' },
      }),
    ).toEqual({
      location: { degreesLatitude: 12.9716, degreesLongitude: 77.5946, name: 'Shop', address: 'MG Road' },
    });
    expect(toMessageContent({ kind: 'location', location: { latitude: -33.9, longitude: 18.4 } })).toEqual({
      location: { degreesLatitude: -33.9, degreesLongitude: 18.4 },
    });

    const asha = { name: 'Asha Rao', phones: ['919876543210'], email: 'asha@example.com', org: 'Clinic' };
    const bob = { name: 'Bob', phones: ['14155550100', '14155550101'] };
    expect(toMessageContent({ kind: 'contact', contacts: [asha] })).toEqual({
      contacts: { displayName: 'Asha Rao', contacts: [{ displayName: 'Asha Rao', vcard: toVCard(asha) }] },
    });
    const two = toMessageContent({ kind: 'contact', contacts: [asha, bob] }) as {
      contacts: { displayName: string; contacts: Array<{ displayName: string; vcard: string }> };
    };
    expect(two.contacts.displayName).toBe('2 contacts');
    expect(two.contacts.contacts.map((c) => c.displayName)).toEqual(['Asha Rao', 'Bob']);
    expect(two.contacts.contacts[1]?.vcard).toContain(
      'TEL;type=CELL;type=VOICE;waid=14155550101:+14155550101',
    );

    expect(toMessageContent({ kind: 'poll', poll: { question: 'When?', options: ['Mon', 'Tue'] } })).toEqual({
      poll: { name: 'When?', values: ['Mon', 'Tue'], selectableCount: 1 },
    });
    expect(
      toMessageContent({
        kind: 'poll',
        poll: { question: 'Which?', options: ['A', 'B', 'C'], multiple: true },
      }),
    ).toEqual({ poll: { name: 'Which?', values: ['A', 'B', 'C'], selectableCount: 0 } });

    expect(() => toMessageContent({ kind: 'poll' })).toThrow(/poll field/);
    expect(() => toMessageContent({ kind: 'location' })).toThrow(/location field/);
  });

  it('a sticker goes as WebP; a list as the network list message with its row ids', () => {
    expect(toMessageContent({ kind: 'sticker' }, { bytes, mimetype: 'image/webp' })).toEqual({
      sticker: Buffer.from(bytes),
      mimetype: 'image/webp',
    });
    expect(rawMessage({ kind: 'text', text: 'x' })).toBeUndefined();
    const list = rawMessage({
      kind: 'list',
      text: 'Pick a day',
      list: {
        body: 'Pick a day',
        button: 'Days',
        sections: [
          {
            title: 'Week',
            rows: [
              { id: 'mon', title: 'Monday', description: 'morning' },
              { id: 'tue', title: 'Tuesday' },
            ],
          },
        ],
      },
    });
    expect(list).toEqual({
      listMessage: {
        description: 'Pick a day',
        buttonText: 'Days',
        listType: 1,
        sections: [
          {
            title: 'Week',
            rows: [
              { rowId: 'mon', title: 'Monday', description: 'morning' },
              { rowId: 'tue', title: 'Tuesday' },
            ],
          },
        ],
      },
    });
    expect(() => rawMessage({ kind: 'list' })).toThrow(/list field/);
  });

  it('quotes and retries use what the store knows', () => {
    const jid = '120363012345678901@g.us';
    const q = quotedStub(jid, 'Q1', {
      kind: 'image',
      direction: 'inbound',
      senderPhone: '919876543210',
      caption: 'c',
    });
    expect(q.key).toEqual({
      remoteJid: jid,
      id: 'Q1',
      fromMe: false,
      participant: '919876543210@s.whatsapp.net',
    });
    expect(q.message?.imageMessage?.caption).toBe('c');
    expect(quotedStub('919876543210@s.whatsapp.net', 'Q2', undefined).key.fromMe).toBe(false);
    expect(retryContent({ kind: 'text', direction: 'outbound', text: 'again' })).toEqual({
      conversation: 'again',
    });
    expect(retryContent({ kind: 'image', direction: 'outbound' })).toBeUndefined();
  });

  it('a sent media message is kept as its media part only, and a retry sends that again', () => {
    expect(sentWire({ conversation: 'hi' })).toBeUndefined();
    expect(sentWire(undefined)).toBeUndefined();
    const wire = sentWire({
      documentMessage: {
        url: 'https://mmg.example.net/d.enc',
        fileName: 'menu.pdf',
        mimetype: 'application/pdf',
      },
      messageContextInfo: { messageSecret: new Uint8Array(32) },
    });
    const again = retryContent({ kind: 'document', direction: 'outbound', wire });
    expect(again?.documentMessage).toMatchObject({
      url: 'https://mmg.example.net/d.enc',
      fileName: 'menu.pdf',
    });
    expect(again?.messageContextInfo).toBeFalsy();
    expect(retryContent({ kind: 'image', direction: 'inbound', wire })).toBeUndefined();
  });
});
