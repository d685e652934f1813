import { afterEach, describe, expect, it } from 'vitest';
import { chatbotTurnKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { chatbotTurnDone } from '../support/chatbot.ts';
import { api, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { fakeAi } from '../support/fake-ai-control.ts';
import { hookedReceiver } from '../support/listeners.ts';
import { outbox } from '../support/outbox.ts';
import { openStream } from '../support/sse-client.ts';
import type { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Human takeover (docs/chatbot.md, "Human takeover"), through the public interface: the simulated
 * network's customer messages and the business's own phone messages (`/_sim/own`), the outbox, the
 * takeover routes, a webhook receiver, the tenant stream and the fake AI provider.
 */

const BASE = '/api/v1/chatbot';
const sim = api();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Tenant = Awaited<ReturnType<typeof newTenant>>;

let seq = 0;
/** A customer number of its own per call, so chats of parallel tests never mix. */
const customer = () =>
  `1556${String(Date.now() % 1_000_000).padStart(6, '0')}${String(seq++ % 100).padStart(2, '0')}`;

/** A tenant whose `price` rule answers every chat, with a session and a webhook receiver. */
async function setup() {
  const t = await newTenant('takeover');
  const s = await readySession(t.api);
  const recv = await hookedReceiver(t.api, closers);
  const rule = await t.api.post(`${BASE}/rules`, {
    mobid: '*',
    triggerType: 'contains',
    keyword: 'price',
    replyType: 'text',
    response: 'A cleaning is 800.',
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  return { t, s, recv };
}

/** A customer writes; answers whether the bot replied, once its turn is decided. */
async function ask(t: Tenant, sessionId: string, from: string, text: string) {
  const before = (await outbox(sessionId)).filter((m) => m.to.startsWith(from)).length;
  const id = await simInbound({ sessionId, from, name: 'Customer', text });
  await chatbotTurnDone(t.id, sessionId, id);
  const outcome = (await dataTable.get<{ outcome: string }>(chatbotTurnKey(t.id, sessionId, id), true))
    ?.outcome;
  if (outcome === 'done') {
    // The reply is typed (human-like delivery) before it reaches the network.
    await waitFor(
      async () => (await outbox(sessionId)).filter((m) => m.to.startsWith(from)).length > before,
      10_000,
      `the reply to ${from}`,
    );
  }
  return { replied: outcome === 'done', outcome };
}

/** The business types a message on its phone to `to`. */
async function fromPhone(sessionId: string, to: string, text: string, id?: string) {
  const r = await sim.post('/_sim/own', { sessionId, to, text, ...(id ? { id } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messageId as string;
}

async function paused(t: Tenant, sessionId: string) {
  const r = await t.api.get(`${BASE}/takeover?sessionId=${sessionId}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.paused as Array<{ chatId: string; until: string; by: string }>;
}

const pausedChat = (t: Tenant, sessionId: string, chatId: string) =>
  waitFor(
    async () => (await paused(t, sessionId)).find((p) => p.chatId === chatId),
    10_000,
    `${chatId} paused`,
  );

const takeoverEvents = (recv: Awaited<ReturnType<typeof startReceiver>>, chatId: string) =>
  recv.requests
    .filter((r) => r.json?.event === 'chat.takeover' && r.json.chat_id === chatId)
    .map((r) => r.json);

describe('human takeover', () => {
  it('a message from the business’s phone pauses the bot for that chat only, extends it on every message, and is told by webhook', async () => {
    const { t, s, recv } = await setup();
    const a = customer();
    const b = customer();
    expect((await ask(t, s.sessionId, a, 'price?')).replied).toBe(true);

    const ownId = await fromPhone(s.sessionId, a, 'Hi, this is Ravi from the clinic');
    const first = await pausedChat(t, s.sessionId, a);
    expect(first.by).toBe('phone');
    const minutes = (Date.parse(first.until) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);

    // Rules do not answer the paused chat; the other chat of the same session is answered.
    expect(await ask(t, s.sessionId, a, 'what is the price now?')).toEqual({
      replied: false,
      outcome: 'human takeover',
    });
    expect((await ask(t, s.sessionId, b, 'price please')).replied).toBe(true);

    // The message typed on the phone is in the chat's history, as the business's.
    const history = await t.api.get(`/view/messages/v1?limit=50&sessionId=${s.sessionId}`);
    expect(history.body.messages.map((m: { id: string }) => m.id)).toContain(ownId);

    // Every new message from the business extends the pause.
    await new Promise((r) => setTimeout(r, 1100));
    await fromPhone(s.sessionId, a, 'Let me check the schedule');
    const later = await waitFor(
      async () => (await paused(t, s.sessionId)).find((p) => p.chatId === a && p.until > first.until),
      10_000,
      'the pause extended',
    );
    expect(Date.parse(later.until)).toBeGreaterThan(Date.parse(first.until));

    const events = await waitFor(
      async () => {
        const e = takeoverEvents(recv, a);
        return e.length >= 2 ? e : undefined;
      },
      10_000,
      'two chat.takeover webhooks',
    );
    expect(events[0]).toMatchObject({
      event: 'chat.takeover',
      session_id: s.sessionId,
      mobid: s.mobid,
      chat_id: a,
      paused: true,
      until: first.until,
      by: 'phone',
    });
    expect(events[1]).toMatchObject({ paused: true, until: later.until, by: 'phone' });
    expect(takeoverEvents(recv, b)).toEqual([]);
  });

  it('the service’s own sends echoed back by the network take nothing over', async () => {
    const { t, s } = await setup();
    const c = customer();
    const d = customer();
    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: c,
      message: 'Your bill',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    await fromPhone(s.sessionId, c, 'Your bill', sent.body.messageId);
    // A session's events apply in order: once d's pause shows, c's echo was applied before it.
    await fromPhone(s.sessionId, d, 'typed on the phone');
    await pausedChat(t, s.sessionId, d);
    expect((await paused(t, s.sessionId)).map((p) => p.chatId)).toEqual([d]);
    expect((await ask(t, s.sessionId, c, 'price?')).replied).toBe(true);
  });

  it('a send with takeover: true pauses the chat; the takeover route hands it back and the bot answers again', async () => {
    const { t, s, recv } = await setup();
    const e = customer();
    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: `+${e}`,
      message: 'Hello, Dr. Mehta here',
      takeover: true,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect((await paused(t, s.sessionId)).find((p) => p.chatId === e)?.by).toBe('api');
    expect((await ask(t, s.sessionId, e, 'price?')).outcome).toBe('human takeover');

    const back = await t.api.post(`${BASE}/takeover`, { sessionId: s.mobid, chatId: e, paused: false });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toEqual({
      success: true,
      sessionId: s.sessionId,
      chatId: e,
      paused: false,
      until: null,
      by: null,
    });
    expect(await paused(t, s.sessionId)).toEqual([]);
    expect((await ask(t, s.sessionId, e, 'price?')).replied).toBe(true);

    const events = await waitFor(
      async () => {
        const x = takeoverEvents(recv, e);
        return x.length >= 2 ? x : undefined;
      },
      25_000, // delivery, not its speed, is what this checks; a busy machine may retry a POST
      'pause and hand-back webhooks',
    );
    expect(events.map((x) => [x.paused, x.by])).toEqual([
      [true, 'api'],
      [false, 'console'],
    ]);
    expect(events[1].until).toBeNull();
  }, 60_000);

  it('a pause ends by itself: minutes per session key and per request, fractions allowed', async () => {
    const { t, s } = await setup();
    const f = customer();
    const g = customer();
    const set = await t.api.post(`${BASE}/takeover/minutes`, { sessionKey: s.sessionId, minutes: 0.05 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await t.api.get(`${BASE}/switches?sessionKey=${s.mobid}`)).body.takeoverMinutes).toBe(0.05);
    expect((await t.api.get(`${BASE}/switches?sessionKey=global`)).body.takeoverMinutes).toBe(30);

    // From the phone: the session key's 3 seconds.
    await fromPhone(s.sessionId, f, 'one moment');
    const p = await pausedChat(t, s.sessionId, f);
    expect(Date.parse(p.until) - Date.now()).toBeLessThanOrEqual(3_000);
    expect((await ask(t, s.sessionId, f, 'price?')).outcome).toBe('human takeover');
    await waitFor(async () => Date.now() > Date.parse(p.until) + 100, 5_000, 'the pause over');
    expect((await paused(t, s.sessionId)).find((x) => x.chatId === f)).toBeUndefined();
    expect((await ask(t, s.sessionId, f, 'price?')).replied).toBe(true);

    // From the console, for as long as asked.
    const pause = await t.api.post(`${BASE}/takeover`, {
      sessionId: s.sessionId,
      chatId: g,
      paused: true,
      minutes: 0.04,
    });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    expect(pause.body).toMatchObject({ success: true, chatId: g, paused: true, by: 'console' });
    expect((await ask(t, s.sessionId, g, 'price?')).outcome).toBe('human takeover');
    await waitFor(async () => Date.now() > Date.parse(pause.body.until) + 100, 5_000, 'the pause over');
    expect((await ask(t, s.sessionId, g, 'price?')).replied).toBe(true);

    // null hands the key back to the default.
    await t.api.post(`${BASE}/takeover/minutes`, { sessionKey: s.sessionId, minutes: null });
    expect((await t.api.get(`${BASE}/switches?sessionKey=${s.sessionId}`)).body.takeoverMinutes).toBe(30);
  });

  it('the model is not asked for a paused chat, and the chat.takeover event reaches the tenant stream', async () => {
    const { t, s } = await setup();
    const h = customer();
    const live = await openStream(t.portalId);
    closers.push(live.close);
    expect(live.status).toBe(200);
    await live.connected;
    await t.api.post(`${BASE}/toggle`, { mobid: 'global', enabled: true });
    const marker = `takeover-${Date.now()}`;
    await fromPhone(s.sessionId, h, 'I am on it');
    await pausedChat(t, s.sessionId, h);
    const asked = await ask(t, s.sessionId, h, `Can I come tomorrow? ${marker}`);
    expect(asked.outcome).toBe('human takeover');
    const calls = (await fakeAi.requests()).filter((r) => JSON.stringify(r.body).includes(marker));
    expect(calls).toEqual([]);

    const event = await waitFor(
      async () => live.events.find((e) => e.json.event === 'chat.takeover'),
      10_000,
      'chat.takeover on the stream',
    );
    expect(event.id).toMatch(/^\d{13}#tko_/);
    expect(event.json).toMatchObject({ session_id: s.sessionId, chat_id: h, paused: true, by: 'phone' });
    // The customer's message is still streamed while the chat is paused.
    await waitFor(
      async () =>
        live.events.find((e) => e.json.event === 'message:inbound' && e.json.message.includes(marker)),
      10_000,
      'the inbound message on the stream',
    );
  });

  it('extraction carries on in a paused chat', async () => {
    const { t, s } = await setup();
    const m = customer();
    await t.api.post(`${BASE}/json-extraction/toggle`, { sessionKey: 'global', enabled: true });
    await fromPhone(s.sessionId, m, 'Asha, I can book you in');
    await pausedChat(t, s.sessionId, m);
    const tool = `TOOL:${JSON.stringify({ found: true, type: 'booking', name: 'Asha', phone: m, what: 'cleaning', when: '2026-12-01T10:00:00Z', confidence: 0.9 })}`;
    expect((await ask(t, s.sessionId, m, `price for tomorrow 10am? ${tool}`)).outcome).toBe('human takeover');
    const records = await waitFor(
      async () => {
        const r = await t.api.get(`${BASE}/extracted-data?sessionKey=global`);
        return r.body.records?.length ? (r.body.records as Array<Record<string, unknown>>) : undefined;
      },
      10_000,
      'the extracted booking',
    );
    expect(records[0]).toMatchObject({ type: 'booking', chatId: m });
    expect((await outbox(s.sessionId)).filter((x) => x.to.startsWith(m))).toEqual([]);
  }, 60_000);

  it('is scoped to the tenant: another tenant can neither see nor change a session’s takeovers', async () => {
    const { t, s } = await setup();
    const other = await newTenant('takeover-other');
    const k = customer();
    await t.api.post(`${BASE}/takeover`, { sessionId: s.sessionId, chatId: k, paused: true });
    expect((await other.api.get(`${BASE}/takeover?sessionId=${s.sessionId}`)).status).toBe(404);
    const r = await other.api.post(`${BASE}/takeover`, { sessionId: s.sessionId, chatId: k, paused: false });
    expect(r.status).toBe(404);
    expect((await paused(t, s.sessionId)).map((p) => p.chatId)).toEqual([k]);
    expect((await api().get(`${BASE}/takeover?sessionId=${s.sessionId}`)).status).toBe(401);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const { t, s } = await setup();
    for (const [body, field] of [
      [{ chatId: '15550001111', paused: true }, 'sessionId'],
      [{ sessionId: s.sessionId, chatId: 'not a number', paused: true }, 'chatId'],
      [{ sessionId: s.sessionId, chatId: '15550001111' }, 'paused'],
      [{ sessionId: s.sessionId, chatId: '15550001111', paused: true, minutes: 0 }, 'minutes'],
      [{ sessionId: s.sessionId, chatId: '15550001111', paused: true, minutes: 20_000 }, 'minutes'],
    ] as const) {
      const r = await t.api.post(`${BASE}/takeover`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(new RegExp(`^${field}\\b`));
    }
    expect((await t.api.post(`${BASE}/takeover/minutes`, { minutes: -1 })).status).toBe(400);
    expect((await t.api.get(`${BASE}/takeover`)).status).toBe(400);
    expect((await t.api.get(`${BASE}/takeover?sessionId=nope`)).status).toBe(404);
  });
});
