import { EventEmitter } from 'node:events';
import type { GroupMetadata, WAMessage, WASocket } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { LidCache } from '#shared/contacts/lid-cache';
import { logger } from '#shared/log/logger';
import type { DriverEvents } from '../driver.ts';
import { wireEvents } from './wire.ts';

const msg = (m: Partial<WAMessage> & { key: WAMessage['key'] }): WAMessage => ({
  messageTimestamp: 1_700_000_000,
  ...m,
});

describe('event wiring', () => {
  it('turns socket events into driver events', async () => {
    const ev = new EventEmitter();
    const calls: Array<[string, ...unknown[]]> = [];
    const events: DriverEvents = {
      onQr: () => {},
      onPairingCode: () => {},
      onOpen: () => {},
      onClose: () => {},
      onInbound: (m, media) => calls.push(['inbound', m, media]),
      onOwnMessage: (m) => calls.push(['own', m]),
      onReceipt: (id, status) => calls.push(['receipt', id, status]),
      onSendFailed: (id, reason) => calls.push(['failed', id, reason]),
      onContacts: (c) => calls.push(['contacts', c]),
      onGroup: (g) => calls.push(['group', g]),
      onLidMapping: (lid, phone) => calls.push(['lid', lid, phone]),
      onMessageChange: (c) => calls.push(['change', c.messageId, c.change]),
      onPollVote: (v) => calls.push(['vote', v.pollId, v.options.join('|')]),
      onActivity: () => {},
      onRestriction: () => {},
      onCall: () => {},
      onHistory: () => {},
    };
    const sock = {
      ev,
      signalRepository: {
        lidMapping: {
          getPNsForLIDs: async (lids: string[]) =>
            lids.includes('555555555555555@lid')
              ? [{ lid: '555555555555555@lid', pn: '14155550100:0@s.whatsapp.net' }]
              : [],
        },
      },
      groupMetadata: async () => {
        throw new Error('not expected');
      },
      updateMediaMessage: async (m: WAMessage) => m,
    } as unknown as WASocket;
    wireEvents({
      sock,
      events,
      log: logger.child({}, { level: 'silent' }),
      maxMediaBytes: 1000,
      mediaTimeoutMs: 1000,
      groups: new Map(),
      contacts: new Set(),
      lids: new LidCache(),
    });

    ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        msg({ key: { remoteJid: '555555555555555@lid', id: 'I1' }, message: { conversation: 'first' } }),
        // No url/key: the download fails, the message still arrives (without media).
        msg({
          key: { remoteJid: '919876543210@s.whatsapp.net', id: 'I2' },
          message: { imageMessage: { mimetype: 'image/png' } },
        }),
      ],
    });
    // The offline queue replayed after login; with it our own message, its fast receipt folded in.
    ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        msg({ key: { remoteJid: '1@s.whatsapp.net', id: 'I3' }, message: { conversation: 'old' } }),
        msg({
          key: { remoteJid: '1@s.whatsapp.net', id: 'O4', fromMe: true },
          message: { conversation: 'ours' },
          status: 3,
        }),
      ],
    });
    ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        msg({
          key: { remoteJid: '919876543210@s.whatsapp.net', id: 'I4' },
          message: { conversation: 'third' },
        }),
      ],
    });
    ev.emit('messages.update', [
      { key: { remoteJid: '919876543210@s.whatsapp.net', id: 'O1', fromMe: true }, update: { status: 4 } },
      { key: { remoteJid: '919876543210@s.whatsapp.net', id: 'O3', fromMe: true }, update: { status: 2 } },
      {
        key: { remoteJid: '919876543210@s.whatsapp.net', id: 'O5', fromMe: true },
        update: { status: 0, messageStubParameters: ['479'] },
      },
    ]);
    ev.emit('message-receipt.update', [
      {
        key: { remoteJid: '120363000000000001@g.us', id: 'O2', fromMe: true },
        receipt: { userJid: 'x', receiptTimestamp: 9 },
      },
    ]);
    ev.emit('lid-mapping.update', { lid: '777777777777777@lid', pn: '919999999999@s.whatsapp.net' });
    ev.emit('contacts.upsert', [{ id: '919876543210@s.whatsapp.net', notify: 'Asha' }]);
    const group: GroupMetadata = {
      id: '120363000000000001@g.us',
      subject: 'Team',
      owner: undefined,
      participants: [
        { id: '919876543210@s.whatsapp.net' },
        { id: '555555555555555@lid' },
        { id: '888888888888888@lid' },
      ],
    };
    ev.emit('groups.update', [group]);

    await expect.poll(() => calls.filter((c) => c[0] === 'inbound').length, { timeout: 5000 }).toBe(4);
    const inbound = calls.filter((c) => c[0] === 'inbound');
    expect(inbound.map((c) => (c[1] as { id: string }).id)).toEqual(['I1', 'I2', 'I3', 'I4']);
    expect(inbound.map((c) => (c[1] as { backlog?: boolean }).backlog)).toEqual([
      undefined,
      undefined,
      true,
      undefined,
    ]);
    expect(calls).toContainEqual(['receipt', 'O4', 'delivered']);
    expect(calls).toContainEqual(['failed', 'O5', 'network refused the message (error 479)']);
    expect(inbound[0]?.[1]).toMatchObject({
      chatId: '14155550100',
      senderPhone: '14155550100',
      senderLid: '555555555555555',
    });
    expect(inbound[1]?.[1]).toMatchObject({ kind: 'image', mimetype: 'image/png' });
    expect(inbound[1]?.[2]).toBeUndefined();
    expect(calls).toContainEqual(['receipt', 'O1', 'read']);
    expect(calls).toContainEqual(['receipt', 'O2', 'delivered']);
    // A server ack (status 2) is not reported: the host reports `sent` when the send resolves.
    expect(calls.filter((c) => c[0] === 'receipt' && c[1] === 'O3')).toEqual([]);
    expect(calls).toContainEqual(['lid', '777777777777777', '919999999999']);
    expect(calls).toContainEqual(['contacts', [{ phone: '919876543210', name: 'Asha' }]]);
    await expect
      .poll(() => calls.find((c) => c[0] === 'group'))
      .toEqual([
        'group',
        {
          groupId: '120363000000000001@g.us',
          subject: 'Team',
          participants: [{ phone: '919876543210' }, { phone: '14155550100' }],
        },
      ]);
  });
});
