import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { toSticker } from '../../connection-host/sticker.ts';
import { api, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { listenTo } from '../support/listeners.ts';
import { fixtures, type MediaFile, mediaServer } from '../support/media-server.ts';
import { DELIVERY_DAY_SECTIONS } from '../support/message-fixtures.ts';
import { must } from '../support/must.ts';
import { outboxWith, sendEach } from '../support/outbox.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const photo = fixtures.png(40);
let webp: MediaFile;
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  const bytes = await sharp(photo.bytes).webp().toBuffer();
  webp = { bytes, mimetype: 'image/webp', sha256: sha(bytes) };
  media = await mediaServer({ 'photo.png': photo, 'sticker.webp': webp });
});
afterAll(async () => media?.close());

/** A tenant with a ready session, a webhook receiver and an open stream. */
async function setup() {
  const t = await newTenant();
  const s = await readySession(t.api);
  const { recv, stream } = await listenTo(t, closers, { secretToken: 'whsec-parity-0123456789' });
  return { t, s, recv, stream };
}

const LIST = {
  body: 'When shall we deliver?',
  button: 'Pick a day',
  sections: DELIVERY_DAY_SECTIONS,
};

describe('stickers and lists', () => {
  it('a PNG goes out as a 512×512 WebP sticker, a WebP as it is; a list with its sections and row ids', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const to = '919876543210';
    const bodies = [
      { sessionId: s.sessionId, to, type: 'sticker', url: media.url('photo.png') },
      { sessionId: s.sessionId, to, type: 'sticker', url: media.url('sticker.webp') },
      { sessionId: s.sessionId, to, type: 'list', list: LIST },
    ];
    const ids = await sendEach(t.api, bodies);
    const out = await outboxWith(s.sessionId, bodies.length);
    expect(out.map((m) => m.id)).toEqual(ids);
    const [converted, kept, list] = out;
    const expected = await toSticker(new Uint8Array(photo.bytes));
    expect((await sharp(expected).metadata()).width).toBe(512);
    expect(converted).toMatchObject({ type: 'sticker', mimetype: 'image/webp', sha256: sha(expected) });
    expect(kept).toMatchObject({ type: 'sticker', mimetype: 'image/webp', sha256: webp.sha256 });
    expect(list).toMatchObject({ type: 'list', text: LIST.body, list: LIST });

    const stored = await Promise.all(ids.map((id) => getMessage(t.id, s.sessionId, id)));
    expect(stored.map((m) => m?.kind)).toEqual(['sticker', 'sticker', 'list']);
    expect(stored[2]?.list).toEqual(LIST);
  });

  it('bad input is a 400 naming the field', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const base = { sessionId: s.sessionId, to: '919876543210' };
    const tooMany = Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, type: 'sticker' }, /^url: /],
      [{ ...base, type: 'list' }, /^list: /],
      [
        { ...base, type: 'list', list: { ...LIST, sections: [{ title: 'All', rows: tooMany }] } },
        /^list\.sections/,
      ],
      [
        {
          ...base,
          type: 'list',
          list: {
            ...LIST,
            sections: [
              {
                title: 'A',
                rows: [
                  { id: 'x', title: 'X' },
                  { id: 'x', title: 'Y' },
                ],
              },
            ],
          },
        },
        /^list\.sections: row ids/,
      ],
      [{ ...base, type: 'list', list: { ...LIST, button: 'a button label far too long' } }, /^list\.button/],
    ];
    for (const [body, message] of cases) {
      const r = await t.api.post('/api/messages/send', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
  });

  it("a customer's list choice and a sticker arrive with documented payloads on webhook, stream and history", async () => {
    const { t, s, recv, stream } = await setup();
    const from = '15550004444';
    const reply = await simInbound({
      sessionId: s.sessionId,
      from,
      name: 'Dev',
      listReply: { id: 'day-tue', title: 'Tuesday' },
    });
    const sticker = await simInbound({
      sessionId: s.sessionId,
      from,
      type: 'sticker',
      mediaUrl: media.url('sticker.webp'),
      mimetype: 'image/webp',
    });
    await messageStored(t.api, reply, 15_000);
    await messageStored(t.api, sticker, 15_000);

    const hook = await waitFor(
      async () => recv.of('message.inbound', reply)[0],
      15_000,
      'list reply webhook',
    );
    expect(hook.json.content).toMatchObject({
      text: 'Tuesday',
      list_reply: { id: 'day-tue', title: 'Tuesday', description: null },
    });
    const st = await waitFor(async () => recv.of('message.inbound', sticker)[0], 20_000, 'sticker webhook');
    expect(st.json.content).toMatchObject({ text: null, mimetype: 'image/webp' });
    expect(st.json.content.media_url).toMatch(/\/links\//);
    expect(st.json.content).not.toHaveProperty('list_reply');

    const events = await waitFor(
      async () => (stream.events.length >= 2 ? stream.events : undefined),
      15_000,
      'stream events',
    );
    const replyEvent = must(
      events.find((e) => e.json.list_reply),
      'an entry of events where e.json.list_reply',
    );
    expect(replyEvent.json).toMatchObject({
      type: 'text',
      message: 'Tuesday',
      list_reply: { id: 'day-tue' },
    });
    expect(events.find((e) => e.json.type === 'sticker')?.json.media).toMatchObject({
      hasMedia: true,
      mediaType: 'sticker',
    });
    expect((await getMessage(t.id, s.sessionId, reply))?.listReply).toEqual({
      id: 'day-tue',
      title: 'Tuesday',
    });
  });
});

describe('poll votes', () => {
  it('votes arrive as poll.vote (webhook and stream) with option texts; the tally follows the latest vote', async () => {
    const { t, s, recv, stream } = await setup();
    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919811830002',
      type: 'poll',
      poll: { question: 'Toppings?', options: ['Cheese', 'Olives', 'Basil'], multiple: true },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const pollId = sent.body.messageId as string;
    await outboxWith(s.sessionId, 1);

    const vote = (from: string, options: string[]) =>
      api().post('/_sim/vote', { sessionId: s.sessionId, from, messageId: pollId, options });
    expect((await vote('919811830002', ['Olives', 'Cheese'])).status).toBe(200);
    expect((await vote('919811830003', ['Cheese'])).status).toBe(200);
    const hooks = await waitFor(
      async () => (recv.of('poll.vote', pollId).length >= 2 ? recv.of('poll.vote', pollId) : undefined),
      15_000,
      'poll.vote webhooks',
    );
    const first = must(
      hooks.find((h) => h.json.voter === '919811830002'),
      "an entry of hooks where h.json.voter === '919811830002'",
    );
    expect(first.json).toMatchObject({
      event: 'poll.vote',
      session_id: s.sessionId,
      mobid: s.mobid,
      message_id: pollId,
      chat_id: '919811830002',
      voter: '919811830002',
      options: ['Olives', 'Cheese'],
      question: 'Toppings?',
    });
    await waitFor(
      async () => stream.events.filter((e) => e.json.event === 'poll.vote').length >= 2 || undefined,
      15_000,
      'poll.vote stream events',
    );
    expect(stream.events.find((e) => e.json.event === 'poll.vote')?.json).toMatchObject({
      message_id: pollId,
    });

    const tally = async () => (await t.api.get(`/api/messages/${pollId}/poll`)).body;
    await waitFor(async () => ((await tally()).voters === 2 ? true : undefined), 10_000, 'tally of 2 voters');
    expect(await tally()).toMatchObject({
      success: true,
      messageId: pollId,
      sessionId: s.sessionId,
      question: 'Toppings?',
      multiple: true,
      voters: 2,
      options: [
        { option: 'Cheese', votes: 2 },
        { option: 'Olives', votes: 1, voters: ['919811830002'] },
        { option: 'Basil', votes: 0, voters: [] },
      ],
    });
    // A voter changes their mind: the later vote replaces the earlier.
    expect((await vote('919811830002', ['Basil'])).status).toBe(200);
    await waitFor(
      async () => ((await tally()).options[2].votes === 1 ? true : undefined),
      10_000,
      'tally after the change',
    );
    expect((await tally()).options.map((o: { votes: number }) => o.votes)).toEqual([1, 0, 1]);
    // With the session named, the same answer.
    const named = await t.api.get(`/api/messages/${pollId}/poll?sessionId=${s.mobid}`);
    expect(named.body.options).toEqual((await tally()).options);

    // The network refuses a vote for an option the poll does not have, or for no poll of ours.
    expect((await vote('919811830004', ['Pineapple'])).status).toBe(400);
    expect(
      (
        await api().post('/_sim/vote', {
          sessionId: s.sessionId,
          from: '919811830004',
          messageId: 'NOPE',
          options: [],
        })
      ).status,
    ).toBe(404);
  });

  it("another tenant's poll, or a message that is no poll, is a 404", async () => {
    const a = await newTenant();
    const sa = await readySession(a.api);
    const p = await a.api.post('/api/messages/send', {
      sessionId: sa.sessionId,
      to: '919811830005',
      type: 'poll',
      poll: { question: 'Q?', options: ['A', 'B'] },
    });
    const text = await a.api.post('/api/messages/send', {
      sessionId: sa.sessionId,
      to: '919811830005',
      text: 'hi',
    });
    const b = await newTenant();
    await readySession(b.api);
    expect((await a.api.get(`/api/messages/${p.body.messageId}/poll`)).status).toBe(200);
    const other = await b.api.get(`/api/messages/${p.body.messageId}/poll`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
    expect((await b.api.get(`/api/messages/${p.body.messageId}/poll?sessionId=${sa.sessionId}`)).status).toBe(
      404,
    );
    expect((await a.api.get(`/api/messages/${text.body.messageId}/poll`)).status).toBe(404);
    expect((await api().get(`/api/messages/${p.body.messageId}/poll`)).status).toBe(401);
  });
});
