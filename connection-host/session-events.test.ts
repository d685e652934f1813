import { describe, expect, it } from 'vitest';
import { LidCache } from '#shared/contacts/lid-cache';
import type { HostEvent } from '#shared/events/types';
import { Handoff, putMediaInS3 } from './handoff.ts';
import { SessionEvents } from './session-events.ts';

function setup() {
  const emitted: HostEvent[] = [];
  const send = async (e: HostEvent) => {
    emitted.push(e);
  };
  const lids = new LidCache({ maxBytes: 1024 * 1024 });
  const events = new SessionEvents(
    () => ({ tenantId: 't1', sessionId: 's1' }),
    new Handoff({ send, putMedia: putMediaInS3 }),
    lids,
  );
  return { emitted, events, lids, forward: events.forwarding() };
}

describe('SessionEvents', () => {
  it('hands history on in batches of at most 50 messages and about 160 KiB, each marked history', async () => {
    const { emitted, events, forward } = setup();
    const message = (i: number, text = 'hi') => ({
      id: `H${i}`,
      chatId: '919800000001',
      senderPhone: '919800000001',
      kind: 'text' as const,
      text,
      timestampMs: 1000 + i,
    });
    const short = Array.from({ length: 120 }, (_, i) => message(i));
    const long = Array.from({ length: 6 }, (_, i) => message(200 + i, 'x'.repeat(60_000)));
    forward.onHistory([...short, ...long], { syncType: 'RECENT', progress: 40 });
    await expect.poll(() => emitted.length).toBe(5);
    await events.handedOn();
    const batches = emitted.flatMap((e) => (e.kind === 'history' ? [e] : []));
    expect(batches.map((b) => b.messages.length)).toEqual([50, 50, 22, 2, 2]);
    expect(batches.every((b) => b.messages.every((m) => m.history === true))).toBe(true);
    expect(batches[0]).toMatchObject({ tenantId: 't1', sessionId: 's1', syncType: 'RECENT', progress: 40 });
    expect(batches.flatMap((b) => b.messages.map((m) => m.id))).toEqual([...short, ...long].map((m) => m.id));
  });

  it('gives a message from a LID the phone a mapping revealed, and says when it is handed on', async () => {
    const { emitted, forward } = setup();
    forward.onLidMapping('123@lid', '919800000002');
    let handedOn = false;
    forward.onInbound(
      {
        id: 'M1',
        chatId: '123@lid',
        senderPhone: null,
        senderLid: '123@lid',
        kind: 'text',
        text: 'hi',
        timestampMs: 1,
      },
      undefined,
      () => {
        handedOn = true;
      },
    );
    await expect.poll(() => handedOn).toBe(true);
    expect(emitted.map((e) => e.kind)).toEqual(['lid.mapping', 'message.inbound']);
    expect(emitted[1]).toMatchObject({ message: { id: 'M1', senderPhone: '919800000002' } });
  });
});
