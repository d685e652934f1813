import { proto } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { outcomeOfStatus, outcomeOfUpdate, receiptOfUserReceipt } from './outcomes.ts';

describe('what the network says of our own messages', () => {
  it('receipts, an error ack, and per-user receipts', () => {
    const S = proto.WebMessageInfo.Status;
    const key = { remoteJid: '919876543210@s.whatsapp.net', id: 'M1', fromMe: true };
    // `sent` is the host's, reported when the send resolves; the server ack would be a second report.
    expect(outcomeOfUpdate({ key, update: { status: S.SERVER_ACK } })).toBeUndefined();
    expect(outcomeOfUpdate({ key, update: { status: S.DELIVERY_ACK } })).toEqual({ status: 'delivered' });
    expect(outcomeOfUpdate({ key, update: { status: S.READ } })).toEqual({ status: 'read' });
    expect(outcomeOfUpdate({ key: { ...key, fromMe: false }, update: { status: S.READ } })).toBeUndefined();
    // An error ack: Baileys puts the network's error code in the stub parameters.
    expect(outcomeOfUpdate({ key, update: { status: S.ERROR, messageStubParameters: ['479'] } })).toEqual({
      status: 'failed',
      reason: 'network refused the message (error 479)',
    });
    expect(outcomeOfStatus(S.PENDING)).toBeUndefined();
    expect(outcomeOfStatus(S.PLAYED)).toEqual({ status: 'read' });
    expect(receiptOfUserReceipt({ userJid: 'x', receiptTimestamp: 5 })).toBe('delivered');
    expect(receiptOfUserReceipt({ userJid: 'x', receiptTimestamp: 5, readTimestamp: 6 })).toBe('read');
  });
});
