import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listChats } from '#shared/contacts/repository';
import type { HostEvent } from '#shared/events/types';
import type { InboundMessage } from '#shared/messages/content';
import { getMessage } from '#shared/messages/repository';
import { applyEvents } from '../../functions/events/batch.ts';

/**
 * The events consumer's rule for undecryptable messages, against the local store: a
 * `decrypt_failed` placeholder is replaced by the real message of its id (once, whether they come
 * in one batch or two); a real message is never replaced, by a repeat or by a late placeholder;
 * every outcome holds under repeats.
 */

const tenantId = `tnt_${randomBytes(8).toString('hex')}`;
const sessionId = `qr_${Date.now()}_${randomBytes(4).toString('hex')}`;
const CHAT = '14155550166';

const inbound = (id: string, m: Partial<InboundMessage>): HostEvent => ({
  kind: 'message.inbound',
  tenantId,
  sessionId,
  at: Date.now(),
  message: { id, chatId: CHAT, senderPhone: CHAT, kind: 'text', timestampMs: 1_763_772_000_000, ...m },
});
const placeholder = (id: string) => inbound(id, { kind: 'decrypt_failed' });
const real = (id: string, text = 'the real text') => inbound(id, { kind: 'text', text });
const stored = (id: string) => getMessage(tenantId, sessionId, id);
const applied = async (...events: HostEvent[]) =>
  expect(await applyEvents(events)).toEqual(events.map(() => true));

describe('placeholders of undecryptable messages in the events consumer', () => {
  it('a repeat of a real message stays de-duplicated: the first one is kept', async () => {
    await applied(real('R1', 'first'));
    await applied(real('R1', 'second'));
    expect(await stored('R1')).toMatchObject({ kind: 'text', text: 'first' });
  });

  it('the real message after its placeholder replaces it, in a later batch or the same one', async () => {
    await applied(placeholder('P1'));
    expect(await stored('P1')).toMatchObject({ kind: 'decrypt_failed' });
    await applied(real('P1'));
    expect(await stored('P1')).toMatchObject({ kind: 'text', text: 'the real text' });

    await applied(placeholder('P2'), real('P2'));
    expect(await stored('P2')).toMatchObject({ kind: 'text', text: 'the real text' });
  });

  it('a placeholder after the real message is ignored; repeats change nothing', async () => {
    await applied(real('L1'));
    await applied(placeholder('L1'));
    expect(await stored('L1')).toMatchObject({ kind: 'text', text: 'the real text' });

    await applied(placeholder('I1'));
    await applied(placeholder('I1'));
    expect(await stored('I1')).toMatchObject({ kind: 'decrypt_failed' });
    await applied(real('I1', 'once'));
    await applied(real('I1', 'again'), placeholder('I1'));
    expect(await stored('I1')).toMatchObject({ kind: 'text', text: 'once' });
  });

  it('a replaced placeholder is not a second message of its chat', async () => {
    // A chat's count is written at most once a minute of message time, with what was counted
    // meanwhile (functions/events/chat-activity.ts): a message a minute later writes them all.
    await applied(inbound('LATER', { kind: 'text', text: 'a minute later', timestampMs: 1_763_772_061_000 }));
    // R1, P1, P2, L1 and I1 above, and that one: six messages, each counted once.
    const chat = (await listChats(tenantId, sessionId)).find((c) => c.chatId === CHAT);
    expect(chat?.inboundCount).toBe(6);
  });
});
