import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { decryptVote, optionsOfVote, pollUpdateOf } from './poll-votes.ts';

const sha = (s: string) => createHash('sha256').update(s).digest();

/** A voter's encryption, as the network's clients do it (the fake network's test voter does the same). */
function seal(pollId: string, creator: string, voter: string, secret: Buffer, options: string[]) {
  const plain = proto.Message.PollVoteMessage.encode({ selectedOptions: options.map(sha) }).finish();
  const sign = Buffer.concat([Buffer.from(`${pollId}${creator}${voter}Poll Vote`), Buffer.from([1])]);
  const key = createHmac('sha256', createHmac('sha256', Buffer.alloc(32)).update(secret).digest())
    .update(sign)
    .digest();
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(`${pollId}\u0000${voter}`));
  return { encPayload: Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]), encIv: iv };
}

describe('poll votes', () => {
  it('option hashes become texts, in the poll order; unknown hashes are left out', () => {
    expect(optionsOfVote(['Mon', 'Tue', 'Wed'], [sha('Wed'), sha('Mon'), sha('Fri')])).toEqual([
      'Mon',
      'Wed',
    ]);
    expect(optionsOfVote(['Mon'], [])).toEqual([]);
  });

  it('decrypts a vote with the kept secret, whichever of the phone and LID ids the voter used', async () => {
    const secret = randomBytes(32);
    const kept: proto.IMessage = {
      pollCreationMessageV3: { name: 'Day?', options: [{ optionName: 'Mon' }, { optionName: 'Tue' }] },
      messageContextInfo: { messageSecret: secret },
    };
    const me = { id: '919876543210:3@s.whatsapp.net', lid: '200000000000000:3@lid' };
    const vote = (creator: string, voter: string): WAMessage => ({
      key: {
        remoteJid: '200000000000001@lid',
        remoteJidAlt: '14155550100@s.whatsapp.net',
        fromMe: false,
        id: 'VOTE1',
      },
      messageTimestamp: 1_700_000_000,
      message: {
        pollUpdateMessage: {
          pollCreationMessageKey: { remoteJid: '14155550100@s.whatsapp.net', fromMe: true, id: 'POLL1' },
          vote: seal('POLL1', creator, voter, secret, ['Tue']),
          senderTimestampMs: 1_700_000_000_123,
        },
      },
    });
    for (const [creator, voter] of [
      ['200000000000000@lid', '200000000000001@lid'],
      ['919876543210@s.whatsapp.net', '14155550100@s.whatsapp.net'],
    ] as const) {
      const m = vote(creator, voter);
      const got = await decryptVote(
        m,
        must(pollUpdateOf(m), 'the poll update'),
        me,
        async (id) => (id === 'POLL1' ? kept : undefined),
        () => undefined,
      );
      expect(got).toEqual({
        pollId: 'POLL1',
        chatId: '14155550100',
        voterPhone: '14155550100',
        voterLid: '200000000000001',
        options: ['Tue'],
        timestampMs: 1_700_000_000_123,
      });
    }
    // Without the poll (not ours, or no longer kept), or with another secret: not readable.
    const m = vote('200000000000000@lid', '200000000000001@lid');
    expect(
      await decryptVote(
        m,
        must(pollUpdateOf(m), 'the poll update'),
        me,
        async () => undefined,
        () => undefined,
      ),
    ).toBeUndefined();
    const other = { ...kept, messageContextInfo: { messageSecret: randomBytes(32) } };
    expect(
      await decryptVote(
        m,
        must(pollUpdateOf(m), 'the poll update'),
        me,
        async () => other,
        () => undefined,
      ),
    ).toBeUndefined();
  });

  it('only a poll update with its poll key and sealed vote is a vote', () => {
    const base = { key: { remoteJid: 'x@s.whatsapp.net', id: 'A' } } as WAMessage;
    expect(pollUpdateOf({ ...base, message: { conversation: 'hi' } })).toBeUndefined();
    expect(pollUpdateOf({ ...base, message: { pollUpdateMessage: { vote: {} } } })).toBeUndefined();
  });
});
