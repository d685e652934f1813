import { afterEach, describe, expect, it } from 'vitest';
import { getMessage } from '#shared/messages/repository';
import { fromVCard } from '#shared/messages/vcard';
import { messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { listenTo } from '../support/listeners.ts';
import { must } from '../support/must.ts';
import { outboxWith, sendEach } from '../support/outbox.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('POST /api/messages/send: location, contact and poll', () => {
  it('sends each kind into the network with the documented outbox fields, and lists them in history', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const to = '919876543210';
    const bodies = [
      {
        sessionId: s.sessionId,
        to,
        type: 'location',
        latitude: 12.9716,
        longitude: 77.5946,
        name: 'Shop',
        address: 'MG Road',
      },
      { sessionId: s.sessionId, to, type: 'location', latitude: -33.9249, longitude: 18.4241 },
      {
        sessionId: s.sessionId,
        to,
        type: 'contact',
        contacts: [
          { name: 'Asha Rao', phones: ['+91 98765-43211'], email: 'asha@example.com', org: 'Clinic' },
          { name: 'Bob', phones: ['14155550100', '14155550101'] },
        ],
      },
      {
        sessionId: s.sessionId,
        to,
        type: 'poll',
        poll: { question: 'Which day?', options: ['Mon', 'Tue', 'Wed'] },
      },
      {
        sessionId: s.sessionId,
        to,
        type: 'poll',
        poll: { question: 'Toppings?', options: ['Cheese', 'Olives'], multiple: true },
      },
    ];
    const ids = await sendEach(t.api, bodies);
    const out = await outboxWith(s.sessionId, bodies.length);
    expect(out.map((m) => m.id)).toEqual(ids);
    const [place, point, cards, poll, multi] = out;
    expect(place).toMatchObject({
      type: 'location',
      location: { latitude: 12.9716, longitude: 77.5946, name: 'Shop', address: 'MG Road' },
    });
    expect(must(point, 'point').location).toEqual({ latitude: -33.9249, longitude: 18.4241 });
    expect(cards).toMatchObject({ type: 'contact' });
    const cardList = must(cards?.contacts, 'the contact cards sent');
    expect(cardList.map((c) => c.name)).toEqual(['Asha Rao', 'Bob']);
    expect(cardList.map((c) => fromVCard(c.vcard))).toEqual([
      { name: 'Asha Rao', phones: ['919876543211'], email: 'asha@example.com', org: 'Clinic' },
      { name: 'Bob', phones: ['14155550100', '14155550101'] },
    ]);
    expect(poll).toMatchObject({
      type: 'poll',
      poll: { question: 'Which day?', options: ['Mon', 'Tue', 'Wed'], multiple: false },
    });
    expect(must(multi, 'multi').poll).toEqual({
      question: 'Toppings?',
      options: ['Cheese', 'Olives'],
      multiple: true,
    });

    const h = await waitFor(async () => {
      const r = await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}&type=outbound&limit=20`);
      return r.body.count === bodies.length ? r.body.messages : undefined;
    });
    const byId = new Map((h as Array<{ id: string; text: string }>).map((m) => [m.id, m.text]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      '12.9716,77.5946',
      '-33.9249,18.4241',
      'Asha Rao, Bob',
      'Which day?',
      'Toppings?',
    ]);
  });

  it('bad input is a 400 naming the field', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const base = { sessionId: s.sessionId, to: '919876543210' };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'location', longitude: 1 }, /^latitude: /],
      [{ type: 'location', latitude: 91, longitude: 1 }, /^latitude: /],
      [{ type: 'location', latitude: 1, longitude: -181 }, /^longitude: /],
      [{ type: 'contact' }, /^contacts: /],
      [{ type: 'contact', contacts: [] }, /^contacts: /],
      [{ type: 'contact', contacts: [{ name: 'A', phones: ['12'] }] }, /^contacts\.0\.phones\.0: /],
      [
        { type: 'contact', contacts: [{ name: 'A', phones: ['919876543210'], email: 'nope' }] },
        /^contacts\.0\.email: /,
      ],
      [{ type: 'poll' }, /^poll: /],
      [{ type: 'poll', poll: { question: 'Q', options: ['only'] } }, /^poll\.options: /],
      [
        { type: 'poll', poll: { question: 'Q', options: Array.from({ length: 13 }, (_, i) => `o${i}`) } },
        /^poll\.options: /,
      ],
      [{ type: 'poll', poll: { question: 'Q', options: ['same', 'same'] } }, /^poll\.options: .*differ/],
      [{ type: 'poll', poll: { question: '', options: ['a', 'b'] } }, /^poll\.question: /],
    ];
    for (const [extra, message] of cases) {
      const r = await t.api.post('/api/messages/send', { ...base, ...extra });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_FAILED');
      expect(r.body.error.message, JSON.stringify(extra)).toMatch(message);
    }
  });

  it("another tenant's session is a 404", async () => {
    const [a, b] = await Promise.all([newTenant(), newTenant()]);
    const s = await readySession(a.api);
    const r = await b.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919876543210',
      type: 'poll',
      poll: { question: 'Q', options: ['a', 'b'] },
    });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('SESSION_NOT_FOUND');
  });
});

describe('inbound location, contact and poll', () => {
  it('arrive as message.inbound webhooks, stream events and history, with a summary text', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const { recv, stream } = await listenTo(t, closers, { secretToken: 'whsec-kinds-0123456789' });

    const from = '15550003333';
    const sent = [
      {
        type: 'location',
        location: { latitude: 12.9716, longitude: 77.5946, name: 'Shop', address: 'MG Road' },
        text: '12.9716,77.5946',
      },
      {
        type: 'contact',
        contacts: [{ name: 'Asha Rao', phones: ['919876543211'], org: 'Clinic' }],
        text: 'Asha Rao',
      },
      { type: 'poll', poll: { question: 'Which day?', options: ['Mon', 'Tue'] }, text: 'Which day?' },
    ];
    const ids: string[] = [];
    for (const { text: _summary, ...body } of sent) {
      ids.push(await simInbound({ sessionId: s.sessionId, from, name: 'Cara', ...body }));
    }
    for (const id of ids) await messageStored(t.api, id, 15_000);

    for (const [i, id] of ids.entries()) {
      const hook = await waitFor(async () => recv.of('message.inbound', id)[0], 15_000, `webhook of ${id}`);
      expect(hook.json.content.text).toBe(must(sent[i], 'sent[i]').text);
    }
    const events = await waitFor(
      async () => (stream.events.length >= ids.length ? stream.events : undefined),
      15_000,
      'stream events',
    );
    expect(events.map((e) => [e.json.type, e.json.message])).toEqual(sent.map((m) => [m.type, m.text]));

    const h = await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}&type=inbound&limit=20`);
    const byId = new Map((h.body.messages as Array<{ id: string; text: string }>).map((m) => [m.id, m.text]));
    expect(ids.map((id) => byId.get(id))).toEqual(sent.map((m) => m.text));

    // The data itself is kept with the stored message.
    const stored = await Promise.all(ids.map((id) => getMessage(t.id, s.sessionId, id)));
    expect(stored.map((m) => m?.kind)).toEqual(['location', 'contact', 'poll']);
    expect(stored[0]?.location).toEqual(must(sent[0], 'sent[0]').location);
    expect(stored[1]?.contacts).toEqual([{ name: 'Asha Rao', phones: ['919876543211'], org: 'Clinic' }]);
    expect(stored[2]?.poll).toEqual({ question: 'Which day?', options: ['Mon', 'Tue'], multiple: false });
  });
});
