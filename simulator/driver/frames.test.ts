import { describe, expect, it } from 'vitest';
import type { DriverEvents } from '../../connection-host/drivers/driver.ts';
import type { Frame, MessageFrame } from '../protocol.ts';
import { deliver, type FrameStep, inboundOf, stepOf } from './frames.ts';

const message = (over: Partial<MessageFrame> = {}): MessageFrame => ({
  type: 'message',
  id: 'SIM1',
  from: '14155550100',
  kind: 'text',
  text: 'hi',
  timestampMs: 1_700_000_000_000,
  ...over,
});

describe('simulator frames', () => {
  it.each<[string, Frame, FrameStep]>([
    ['qr', { type: 'qr', qr: '2@abc' }, { step: 'report', event: { name: 'onQr', args: ['2@abc'] } }],
    [
      'pairing code',
      { type: 'pairing-code', code: 'ABCD1234' },
      { step: 'report', event: { name: 'onPairingCode', args: ['ABCD1234'] } },
    ],
    [
      'linked',
      { type: 'linked', token: 'tok', mobile: '14155550100' },
      { step: 'store-creds', creds: { token: 'tok', mobile: '14155550100' } },
    ],
    [
      'open',
      { type: 'open', mobile: '14155550100' },
      { step: 'report', event: { name: 'onOpen', args: [{ mobile: '14155550100' }] } },
    ],
    [
      'restart',
      { type: 'close', reason: 'restart', detail: 'restart required (515)' },
      { step: 'end', end: { kind: 'restart' }, forgetCreds: false },
    ],
    [
      'connection lost',
      { type: 'close', reason: 'transient', detail: 'connection lost (428)' },
      { step: 'end', end: { kind: 'transient', reason: 'connection lost (428)' }, forgetCreds: false },
    ],
    [
      'logged out',
      { type: 'close', reason: 'logged_out', detail: 'device was logged out (401)' },
      { step: 'end', end: { kind: 'logged_out', reason: 'device was logged out (401)' }, forgetCreds: true },
    ],
    [
      'replaced',
      { type: 'close', reason: 'replaced', detail: 'connection replaced (440)' },
      { step: 'end', end: { kind: 'replaced', reason: 'connection replaced (440)' }, forgetCreds: false },
    ],
    [
      'receipt',
      { type: 'receipt', id: 'M1', status: 'read' },
      { step: 'report', event: { name: 'onReceipt', args: ['M1', 'read'] } },
    ],
    // `sent` is the host's, reported when the send resolves; the network's ack would be a second report.
    ['server ack of our send', { type: 'receipt', id: 'M1', status: 'sent' }, { step: 'ignore' }],
    [
      'LID mapping',
      { type: 'lid-mapping', lid: '123456789012345', phone: '14155550100' },
      { step: 'report', event: { name: 'onLidMapping', args: ['123456789012345', '14155550100'] } },
    ],
    [
      'contacts',
      { type: 'contacts', contacts: [{ phone: '14155550100', name: 'Ann' }] },
      { step: 'report', event: { name: 'onContacts', args: [[{ phone: '14155550100', name: 'Ann' }]] } },
    ],
    [
      'group',
      { type: 'group', groupId: '120363001', subject: 'Team', participants: [{ phone: '1' }] },
      {
        step: 'report',
        event: {
          name: 'onGroup',
          args: [{ groupId: '120363001@g.us', subject: 'Team', participants: [{ phone: '1' }] }],
        },
      },
    ],
  ])('%s', (_, frame, step) => {
    expect(stepOf(frame)).toEqual(step);
  });

  it('reports the account’s own phone message as an own message in the customer’s chat', () => {
    expect(
      stepOf({
        type: 'own-message',
        id: 'SIMOWN1',
        to: '14155550100',
        kind: 'text',
        text: 'on it',
        timestampMs: 5,
      }),
    ).toEqual({
      step: 'report',
      event: {
        name: 'onOwnMessage',
        args: [
          {
            id: 'SIMOWN1',
            chatId: '14155550100',
            kind: 'text',
            text: 'on it',
            caption: undefined,
            timestampMs: 5,
          },
        ],
      },
    });
  });

  it('hands a message on with the URL of its media, to fetch first', () => {
    const frame = message({ kind: 'image', text: 'look', mediaUrl: 'http://sim/m/1', mimetype: 'image/png' });
    expect(stepOf(frame)).toEqual({ step: 'inbound', message: inboundOf(frame), mediaUrl: 'http://sim/m/1' });
  });

  it('maps a text from a phone', () => {
    expect(inboundOf(message({ name: 'Ann' }))).toEqual({
      id: 'SIM1',
      chatId: '14155550100',
      senderPhone: '14155550100',
      senderLid: undefined,
      senderName: 'Ann',
      groupId: undefined,
      kind: 'text',
      text: 'hi',
      caption: undefined,
      fileName: undefined,
      mimetype: undefined,
      timestampMs: 1_700_000_000_000,
    });
  });

  it('chats with a sender hidden behind a LID as <lid>@lid, with no phone', () => {
    const m = inboundOf(message({ from: '', lid: '123456789012345' }));
    expect(m).toMatchObject({
      chatId: '123456789012345@lid',
      senderPhone: null,
      senderLid: '123456789012345',
    });
  });

  it('puts a group message in the group chat', () => {
    const m = inboundOf(message({ groupId: '120363001' }));
    expect(m).toMatchObject({
      chatId: '120363001@g.us',
      groupId: '120363001@g.us',
      senderPhone: '14155550100',
    });
  });

  it('takes the text of a media message as its caption, and an unknown kind as unknown', () => {
    expect(inboundOf(message({ kind: 'document', text: 'invoice', fileName: 'a.pdf' }))).toMatchObject({
      kind: 'document',
      text: undefined,
      caption: 'invoice',
      fileName: 'a.pdf',
    });
    expect(inboundOf(message({ kind: 'list' })).kind).toBe('unknown');
  });

  it('reads locations, vCards and polls, with the summary text the Baileys driver gives too', () => {
    const location = { latitude: 12.97, longitude: 77.59, name: 'Shop' };
    expect(inboundOf(message({ kind: 'location', text: undefined, location }))).toMatchObject({
      kind: 'location',
      text: '12.97,77.59',
      caption: undefined,
      location,
    });
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Asha Rao\nTEL;waid=919876543211:+919876543211\nEND:VCARD';
    expect(inboundOf(message({ kind: 'contact', contacts: [{ name: 'Asha', vcard }] }))).toMatchObject({
      kind: 'contact',
      text: 'Asha Rao',
      contacts: [{ name: 'Asha Rao', phones: ['919876543211'] }],
    });
    const poll = { question: 'Which day?', options: ['Mon', 'Tue'], multiple: false };
    expect(inboundOf(message({ kind: 'poll', poll }))).toMatchObject({
      kind: 'poll',
      text: 'Which day?',
      poll,
    });
  });

  it('delivers a reported event to its callback with its arguments', () => {
    const calls: unknown[][] = [];
    const events = new Proxy({} as DriverEvents, {
      get:
        (_, name) =>
        (...args: unknown[]) =>
          calls.push([name, ...args]),
    });
    deliver(events, { name: 'onReceipt', args: ['M1', 'delivered'] });
    deliver(events, { name: 'onOpen', args: [{ mobile: '1' }] });
    expect(calls).toEqual([
      ['onReceipt', 'M1', 'delivered'],
      ['onOpen', { mobile: '1' }],
    ]);
  });
});
