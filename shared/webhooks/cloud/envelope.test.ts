import { describe, expect, it } from 'vitest';
import { must } from '../../must.ts';
import { failureError, inboundEnvelope, statusEnvelope } from './envelope.ts';

/** The value of an envelope's one change (an inbound envelope holds one entry with one change). */
const changeValue = (e: ReturnType<typeof inboundEnvelope>) =>
  must(must(e.entry[0], 'an entry').changes[0], 'a change').value;

const sender = { tenantId: 't1', phoneNumberId: 'mob123', displayPhoneNumber: '919800000001' };
const at = Date.UTC(2026, 0, 2, 3, 4, 5);

describe('Cloud-format envelope', () => {
  it('wraps an inbound text in Meta envelope, with the sender in contacts', () => {
    const e = inboundEnvelope(sender, {
      id: '3EB0AAAA',
      kind: 'text',
      from: '15550001111',
      senderName: 'Alice',
      text: 'héllo',
      timestampMs: at,
      mediaUrl: null,
    });
    expect(e).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 't1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '919800000001', phone_number_id: 'mob123' },
                contacts: [{ profile: { name: 'Alice' }, wa_id: '15550001111' }],
                messages: [
                  {
                    from: '15550001111',
                    id: 'wamid.3EB0AAAA',
                    timestamp: String(at / 1000),
                    type: 'text',
                    text: { body: 'héllo' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
  });

  it.each([
    ['image', 'image', {}],
    ['voice', 'audio', { voice: true }],
    ['document', 'document', { filename: 'a.pdf' }],
    ['sticker', 'sticker', {}],
  ] as const)('gives %s media its Cloud type %s with id, mime type, caption and url', (kind, type, extra) => {
    const e = inboundEnvelope(sender, {
      id: '3EB0BBBB',
      kind,
      from: '15550001111',
      caption: 'look',
      fileName: 'a.pdf',
      mimetype: 'x/y',
      timestampMs: at,
      mediaUrl: 'https://media.example/x',
    });
    const m = changeValue(e).messages;
    expect(m[0]).toMatchObject({
      type,
      [type]: { id: '3EB0BBBB', mime_type: 'x/y', caption: 'look', url: 'https://media.example/x', ...extra },
    });
  });

  it("reports a choice from a list message as Meta's interactive list_reply", () => {
    const value = changeValue(
      inboundEnvelope(sender, {
        id: 'i',
        kind: 'text',
        from: '1555',
        text: 'Tuesday',
        listReply: { id: 'day-tue', title: 'Tuesday' },
        timestampMs: at,
        mediaUrl: null,
      }),
    ).messages[0];
    expect(value).toMatchObject({
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'day-tue', title: 'Tuesday' } },
    });
  });

  it('reports a location, a group message and an unknown kind', () => {
    const msg = (kind: 'location' | 'unknown', extra = {}) =>
      changeValue(
        inboundEnvelope(sender, {
          id: 'i',
          kind,
          from: '1555',
          text: '12.5,77.25',
          timestampMs: at,
          mediaUrl: null,
          ...extra,
        }),
      ).messages[0];
    expect(msg('location')).toMatchObject({
      type: 'location',
      location: { latitude: 12.5, longitude: 77.25 },
    });
    expect(msg('location', { groupId: '1203@g.us' })).toMatchObject({ group_id: '1203@g.us' });
    expect(msg('unknown')).toMatchObject({ type: 'unsupported', errors: [{ code: 131051 }] });
  });

  it('reports sent, delivered, read and failed (with errors), never queued', () => {
    const st = (status: 'queued' | 'sent' | 'failed', reason?: string, chatId = '919876543210') =>
      statusEnvelope(sender, { messageId: '3EB0CCCC', chatId, status, reason, atMs: at });
    expect(st('queued')).toBeUndefined();
    expect(st('sent')?.entry[0]?.changes[0]?.value).toEqual({
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '919800000001', phone_number_id: 'mob123' },
      statuses: [
        { id: 'wamid.3EB0CCCC', status: 'sent', timestamp: String(at / 1000), recipient_id: '919876543210' },
      ],
    });
    expect(
      st('failed', 'network refused the message (error 479)')?.entry[0]?.changes[0]?.value.statuses,
    ).toEqual([
      expect.objectContaining({
        status: 'failed',
        errors: [
          {
            code: 131049,
            title: 'This message was not delivered to maintain healthy ecosystem engagement',
            message: '(#131049) This message was not delivered to maintain healthy ecosystem engagement',
            error_data: { details: 'network refused the message (error 479)' },
          },
        ],
      }),
    ]);
    expect(st('sent', undefined, '120363@g.us')?.entry[0]?.changes[0]?.value.statuses).toEqual([
      expect.objectContaining({ recipient_id: '120363', recipient_type: 'group' }),
    ]);
  });

  it('maps failure reasons to the Cloud code of the same meaning', () => {
    expect(failureError('network refused the message').code).toBe(131049);
    expect(failureError('media URL answered 404').code).toBe(131053);
    expect(failureError('media larger than 67108864 bytes').code).toBe(131053);
    expect(failureError('the voice note could not be spoken: x')).toMatchObject({
      code: 131000,
      error_data: { details: 'the voice note could not be spoken: x' },
    });
    expect(failureError(undefined).error_data.details).toBe('the message could not be sent');
  });
});
