import { afterEach, describe, expect, it } from 'vitest';
import { names } from '#shared/aws/names';
import type { HostEvent } from '#shared/events/types';
import { sendJson } from '#shared/queue/send';
import { chatbotTurnKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { verifySignature } from '../../shared/webhooks/sign.ts';
import { chatbotTurnDone } from '../support/chatbot.ts';
import { api, messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { fakeAi } from '../support/fake-ai-control.ts';
import { must } from '../support/must.ts';
import { type OutboxEntry, outbox } from '../support/outbox.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * The chatbot off the request path, through the public interface: the simulator's inbound messages
 * and outbox, a webhook receiver, and the fake AI provider the global setup starts. The global setup
 * sets CHATBOT_PAUSE_MIN_MS..MAX_MS = 50..150 and CHATBOT_TYPING_MIN_MS..MAX_MS = 200..600.
 */
const TYPING_MIN_MS = 200;
const TYPING_MAX_MS = 600;

const sim = api();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Tenant = Awaited<ReturnType<typeof newTenant>>;

let senderSeq = 0;
/** A customer number of its own per call, so chats of parallel tests never mix. */
const customer = () =>
  `1555${String(Date.now() % 1_000_000).padStart(6, '0')}${String(senderSeq++ % 100).padStart(2, '0')}`;

const inbound = (sessionId: string, from: string, text: string, extra: Record<string, unknown> = {}) =>
  simInbound({ sessionId, from, name: 'Customer', text, ...extra });

const turnDone = (t: Tenant, sessionId: string, messageId: string) =>
  chatbotTurnDone(t.id, sessionId, messageId);

async function addRule(t: Tenant, rule: Record<string, unknown>) {
  const r = await t.api.post('/api/v1/chatbot/rules', { mobid: '*', replyType: 'text', ...rule });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}

async function toggle(t: Tenant, mobid: string, enabled: boolean) {
  const r = await t.api.post('/api/v1/chatbot/toggle', { mobid, enabled });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const to = (sent: OutboxEntry[], phone: string) => sent.filter((m) => m.to.startsWith(phone));

async function repliesTo(sessionId: string, phone: string, count = 1, timeoutMs = 15_000) {
  return waitFor(
    async () => {
      const sent = to(await outbox(sessionId), phone);
      return sent.length >= count ? sent : undefined;
    },
    timeoutMs,
    `${count} replies to ${phone}`,
  );
}

async function webhookOn(t: Tenant, secret = 'cb-secret-0123456789') {
  const recv = await startReceiver();
  closers.push(recv.close);
  const cfg = await t.api.post('/api/webhook/config', {
    webhookUrl: recv.url,
    secretToken: secret,
    approvedDomains: '127.0.0.1',
    enabled: true,
  });
  expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
  return recv;
}

/** What the host reports, put on the events queue as the host would (for cases the simulator cannot make). */
async function hostInbound(
  tenantId: string,
  sessionId: string,
  m: Partial<Extract<HostEvent, { kind: 'message.inbound' }>['message']> & { chatId: string },
) {
  const id = `INJ${Date.now()}${senderSeq++}`;
  const event: HostEvent = {
    kind: 'message.inbound',
    tenantId,
    sessionId,
    at: Date.now(),
    message: {
      id,
      senderPhone: m.chatId,
      kind: 'text',
      timestampMs: Date.now(),
      ...m,
    },
  };
  await sendJson(names.eventsQueue(), event);
  return id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chatbot pipeline', () => {
  it('a text rule answers with no model call and no credit, after a composing presence and a typing delay within the bounds; chatbot.reply is signed', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const secret = 'cb-secret-rule-0123456789';
    const recv = await webhookOn(t, secret);
    const marker = `hours-${Date.now()}`;
    await addRule(t, {
      triggerType: 'contains',
      keyword: 'opening hours',
      response: `We open at 9 (${marker})`,
    });
    const before = (await fakeAi.requests()).length;

    const from = customer();
    const inboundId = await inbound(s.sessionId, from, 'What are your opening hours?');
    const reply = must((await repliesTo(s.sessionId, from))[0], 'a reply');
    expect(reply.text).toBe(`We open at 9 (${marker})`);

    // Human-like: composing first, then the message after the typing delay, then paused.
    const composing = reply.presence.find((p) => p.type === 'composing');
    expect(composing, JSON.stringify(reply.presence)).toBeDefined();
    const typed = reply.at - must(composing, 'composing').at;
    expect(typed).toBeGreaterThanOrEqual(TYPING_MIN_MS - 5);
    expect(typed).toBeLessThanOrEqual(TYPING_MAX_MS + 400);

    // The reply is history like any send, with its statuses.
    const history = await waitFor(
      async () => {
        const r = await t.api.get(`/view/messages/v1?limit=50`);
        const mine = (r.body.messages as Array<Record<string, any>>).find((m) => m.id === reply.id);
        return mine?.status === 'sent' || mine?.status === 'delivered' ? mine : undefined;
      },
      10_000,
      'reply in history as sent',
    );
    expect(history.id).toBe(reply.id);

    const hook = await waitFor(async () => recv.of('chatbot.reply', inboundId)[0], 10_000, 'chatbot.reply');
    expect(hook.headers['x-service-event']).toBe('chatbot.reply');
    expect(
      verifySignature(
        secret,
        String(hook.headers['x-service-timestamp']),
        hook.body,
        String(hook.headers['x-service-signature']),
      ),
    ).toBe(true);
    expect(hook.json).toMatchObject({
      event: 'chatbot.reply',
      session_id: s.sessionId,
      chat_id: from,
      message_id: inboundId,
      reply: { message_id: reply.id, text: `We open at 9 (${marker})` },
      tier: 'rule',
      model: null,
      tokens: null,
      credits: 0,
      media_analysis: null,
      extracted: null,
      // A static rule answered before the intent engine was asked.
      intent_candidates: null,
      defer_reason: null,
    });
    expect(hook.json.rule_id).toMatch(/^rule_\d+$/);
    expect(hook.json.history.at(-1)).toMatchObject({ direction: 'inbound', message_id: inboundId });
    // message.inbound is a separate delivery.
    expect(recv.of('message.inbound', inboundId)).toHaveLength(1);

    // No model call for this tenant's rule reply.
    expect(
      (await fakeAi.requests()).slice(before).some((r) => JSON.stringify(r.body).includes('opening hours')),
    ).toBe(false);
    const usage = await t.api.get(`/api/v1/ai/usage/${s.sessionId}`);
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body.usage).toMatchObject({ aiUsageCount: 0, totalCreditsUsed: 0, totalMessages: 1 });
  });

  it('chatbot disabled (a new session): rules still answer, nothing else does and the model is not called', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await addRule(t, { triggerType: 'exact', keyword: 'ping', response: 'pong' });
    const from = customer();
    const word = `unmatched-${Date.now()}`;
    const first = await inbound(s.sessionId, from, `tell me about ${word}`);
    const ping = await inbound(s.sessionId, from, 'PING'); // exact matches case-insensitively
    const reply = must((await repliesTo(s.sessionId, from))[0], 'a reply');
    expect(reply.text).toBe('pong');
    for (const id of [first, ping]) await turnDone(t, s.sessionId, id);
    expect(to(await outbox(s.sessionId), from)).toHaveLength(1);
    expect((await fakeAi.requests()).some((r) => JSON.stringify(r.body).includes(word))).toBe(false);
  });

  it('a tenant with no rule and no switch on gets no chatbot job at all; its first rule applies to the next message', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const quiet = customer();
    const first = await inbound(s.sessionId, quiet, 'hello, anyone there?');
    await messageStored(t.api, first);
    await addRule(t, { triggerType: 'exact', keyword: 'hours', response: 'Open 9 to 5' });
    const from = customer();
    const second = await inbound(s.sessionId, from, 'hours');
    const reply = must((await repliesTo(s.sessionId, from))[0], 'a reply');
    expect(reply.text).toBe('Open 9 to 5');
    // The second message's job ran (its marker is done). The first one had no job when its hooks ran
    // before the rule was saved; on a loaded machine they may run after it (the message is visible in
    // history before its hooks run), and then its job finds nothing to do: never a reply.
    expect(await dataTable.get(chatbotTurnKey(t.id, s.sessionId, second), true)).toMatchObject({
      state: 'done',
    });
    const firstJob = await dataTable.get<{ outcome?: string }>(
      chatbotTurnKey(t.id, s.sessionId, first),
      true,
    );
    if (firstJob) expect(firstJob.outcome).toBe('chatbot disabled');
    expect(to(await outbox(s.sessionId), quiet)).toHaveLength(0);
  });

  it('a burst of 3 messages within the debounce window gets one reply', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await addRule(t, { triggerType: 'contains', keyword: 'price', response: 'Prices start at 100.' });
    const from = customer();
    const ids = [
      await inbound(s.sessionId, from, 'hi'),
      await inbound(s.sessionId, from, 'what is the price'),
    ];
    const last = await inbound(s.sessionId, from, 'of a cleaning?');
    // The newest message answers the whole burst; no rule matches its own text, so the turn's text
    // (all three joined) is what matched.
    const reply = must((await repliesTo(s.sessionId, from))[0], 'a reply');
    expect(reply.text).toBe('Prices start at 100.');
    for (const id of [...ids, last]) await turnDone(t, s.sessionId, id);
    expect(to(await outbox(s.sessionId), from)).toHaveLength(1);
    await messageStored(t.api, last);
  });

  it('pure extractor mode: nothing is sent, the message is still stored and forwarded', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await webhookOn(t);
    await addRule(t, { triggerType: 'contains', keyword: 'hello', response: 'Hi there' });
    const on = await t.api.post('/api/v1/chatbot/pure-extractor', { enabled: true, sessionKey: s.sessionId });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const from = customer();
    const id = await inbound(s.sessionId, from, 'hello, anyone?');
    await messageStored(t.api, id);
    await waitFor(async () => recv.of('message.inbound', id)[0], 10_000, 'message.inbound');
    await turnDone(t, s.sessionId, id);
    expect(to(await outbox(s.sessionId), from)).toHaveLength(0);
    expect(recv.of('chatbot.reply')).toHaveLength(0);

    // Off again: the same rule answers.
    await t.api.post('/api/v1/chatbot/pure-extractor', { enabled: false, sessionKey: s.sessionId });
    await inbound(s.sessionId, from, 'hello again');
    const reply = must((await repliesTo(s.sessionId, from))[0], 'a reply');
    expect(reply.text).toBe('Hi there');
  });

  it('group, own, backlog and old messages get no reply (still stored)', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await addRule(t, { triggerType: 'contains', keyword: 'status', response: 'All good.' });
    const member = customer();
    const g = await sim.post('/_sim/groups', {
      sessionId: s.sessionId,
      subject: 'Customers',
      participants: [{ phone: member }],
    });
    expect(g.status).toBe(200);
    const groupMsg = await inbound(s.sessionId, member, 'status please', { groupId: g.body.groupId });
    const backlogFrom = customer();
    const backlog = await hostInbound(t.id, s.sessionId, {
      chatId: backlogFrom,
      text: 'status?',
      backlog: true,
    });
    const oldFrom = customer();
    const old = await hostInbound(t.id, s.sessionId, {
      chatId: oldFrom,
      text: 'status?',
      timestampMs: Date.now() - 400_000,
    });
    const own = await hostInbound(t.id, s.sessionId, {
      chatId: s.mobile_number,
      senderPhone: s.mobile_number,
      text: 'status?',
    });
    for (const id of [groupMsg, backlog, old, own]) await messageStored(t.api, id);

    // A control message queued after them is answered; by then the others would have been too.
    const control = customer();
    await inbound(s.sessionId, control, 'status?');
    await repliesTo(s.sessionId, control);
    await sleep(1500);
    const sent = await outbox(s.sessionId);
    for (const phone of [backlogFrom, oldFrom, s.mobile_number as string])
      expect(to(sent, phone)).toHaveLength(0);
    expect(sent.filter((m) => m.to.includes(String(g.body.groupId)))).toHaveLength(0);
  });
});

describe('chatbot with the model', () => {
  it('enabled: the model answers with the brain and persona as cached system blocks and the recent turns; chatbot.reply reports the tier, tokens and credits; usage counts the call once', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await webhookOn(t);
    const tag = `clinic-${Date.now()}`;
    const brain = await t.api.post('/api/v1/chatbot/brain', {
      sessionKey: s.sessionId,
      brainData: { business: { name: `Sunrise Dental ${tag}` } },
    });
    expect(brain.status, JSON.stringify(brain.body)).toBeLessThan(300);
    const prompt = await t.api.post('/api/v1/chatbot/prompt', {
      sessionKey: s.sessionId,
      prompt: `You are the friendly receptionist of ${tag}.`,
    });
    expect(prompt.status, JSON.stringify(prompt.body)).toBeLessThan(300);
    await addRule(t, { triggerType: 'exact', keyword: 'hi', response: 'Hello! How can I help?' });
    await toggle(t, s.sessionId, true);

    const from = customer();
    await inbound(s.sessionId, from, 'hi');
    await repliesTo(s.sessionId, from, 1);
    const question = `Do you do root canals? ${tag}`;
    const inboundId = await inbound(s.sessionId, from, question);
    const sent = await repliesTo(s.sessionId, from, 2, 20_000);
    expect(must(sent[1], 'sent[1]').text).toBe(`Reply to: ${question}`);
    expect(must(sent[1], 'sent[1]').presence.some((p) => p.type === 'composing')).toBe(true);

    const calls = (await fakeAi.requests()).filter((r) => JSON.stringify(r.body).includes(question));
    expect(calls).toHaveLength(1);
    const body = must(calls[0], 'calls[0]').body;
    const system = body.system as Array<{ text: string; cache_control?: unknown }>;
    const cached = system.filter((b) => b.cache_control);
    expect(cached.length).toBeGreaterThan(0);
    const cachedText = cached.map((b) => b.text).join('\n');
    // Persona and brain are in the cached prefix.
    expect(system.some((b) => b.text.includes(`receptionist of ${tag}`))).toBe(true);
    expect(system.some((b) => b.text.includes(`Sunrise Dental ${tag}`))).toBe(true);
    expect(cachedText).toContain(`Sunrise Dental ${tag}`);
    // The recent turns: the earlier exchange, then the question.
    const turns = (body.messages as Array<{ role: string; content: unknown }>).map((m) => ({
      role: m.role,
      text: JSON.stringify(m.content),
    }));
    expect(turns.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    expect(must(turns[1], 'turns[1]').text).toContain('Hello! How can I help?');
    expect(must(turns[2], 'turns[2]').text).toContain(question);

    const hook = await waitFor(async () => recv.of('chatbot.reply', inboundId)[0], 10_000, 'chatbot.reply');
    expect(hook.json).toMatchObject({
      tier: 'model',
      model: { provider_tier: 'primary' },
      reply: { text: `Reply to: ${question}` },
      rule_id: null,
      intent_candidates: [],
      defer_reason: 'no intents',
    });
    expect(hook.json.model.key_index).toBeGreaterThanOrEqual(0);
    expect(
      hook.json.tokens.input + hook.json.tokens.cache_read + hook.json.tokens.cache_write,
    ).toBeGreaterThan(0);
    expect(hook.json.tokens.output).toBeGreaterThan(0);
    expect(hook.json.credits).toBeGreaterThan(0);
    expect(hook.json.latency_ms.model).toBeGreaterThanOrEqual(0);

    // One model call, one rule reply: counted once each.
    const usage = await waitFor(
      async () => {
        const r = await t.api.get(`/api/v1/ai/usage/${s.mobid}`);
        return r.body.usage?.aiUsageCount === 1 ? r.body.usage : undefined;
      },
      10_000,
      'usage counted',
    );
    expect(usage).toMatchObject({ mobid: s.mobid, aiUsageCount: 1, totalMessages: 2, docAnalysisCount: 0 });
    expect(usage.totalCreditsUsed).toBe(hook.json.credits);
    const all = await t.api.get('/api/v1/ai/usage');
    expect(all.status).toBe(200);
    expect(all.body.stats).toEqual({
      totalSessions: 1,
      totalAiCalls: 1,
      totalDocAnalyses: 0,
      totalAudioTranscriptions: 0,
      totalMessages: 2,
    });
    expect(all.body.sessions).toEqual([
      {
        mobid: s.mobid,
        mobile_number: s.mobile_number,
        aiUsageCount: 1,
        docAnalysisCount: 0,
        audioTranscribeCount: 0,
        totalMessages: 2,
        totalCreditsUsed: hook.json.credits,
      },
    ]);
    // By mobile number too.
    expect((await t.api.get(`/api/v1/ai/usage/${s.mobile_number}`)).body.usage.aiUsageCount).toBe(1);

    // Tenant B sees none of it.
    const b = await newTenant('other');
    for (const id of [s.sessionId, s.mobid, s.mobile_number]) {
      const r = await b.api.get(`/api/v1/ai/usage/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.success).toBe(false);
    }
    const bAll = await b.api.get('/api/v1/ai/usage');
    expect(bAll.body.stats.totalAiCalls).toBe(0);
    expect(bAll.body.sessions).toEqual([]);
    expect((await api().get('/api/v1/ai/usage')).status).toBe(401);
  });

  it('enabled with an intents file: a matching question is answered by the intent with no model call; an off-topic one goes to the model', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await webhookOn(t);
    const tag = `parking-${Date.now()}`;
    const saved = await t.api.post('/api/v1/chatbot/intents', {
      intents: {
        meta: { name: 'e2e' },
        intents: [
          {
            id: 'parking',
            category: 'faq',
            action: 'parking_info',
            training_phrases: {
              en: [
                'is there parking',
                'where can I park',
                'do you have parking space',
                'car parking available',
              ],
            },
            responses: { en: `Free parking behind the building (${tag}).` },
          },
        ],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await toggle(t, s.sessionId, true);

    const from = customer();
    const q1 = await inbound(s.sessionId, from, 'where can I park');
    const reply = must((await repliesTo(s.sessionId, from, 1, 20_000))[0], 'a reply');
    expect(reply.text).toBe(`Free parking behind the building (${tag}).`);
    const hook = await waitFor(async () => recv.of('chatbot.reply', q1)[0], 10_000, 'chatbot.reply');
    expect(hook.json).toMatchObject({ tier: 'intent', intent: { id: 'parking' }, model: null, credits: 0 });
    // Every decision is explained: the intents weighed, with their scores, and why not (null: answered).
    expect(hook.json.intent_candidates).toEqual([{ id: 'parking', score: 1, match: 'rule' }]);
    expect(hook.json.defer_reason).toBeNull();

    const offTopic = `What is the capital of Peru? ${tag}`;
    const q2 = await inbound(s.sessionId, from, offTopic);
    const sent = await repliesTo(s.sessionId, from, 2, 20_000);
    expect(must(sent[1], 'sent[1]').text).toBe(`Reply to: ${offTopic}`);
    const calls = (await fakeAi.requests()).filter((r) => JSON.stringify(r.body).includes(tag));
    // Only the off-topic question reached the model (the earlier turn is in its history).
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(must(calls[0], 'calls[0]').body.messages.at(-1))).toContain('capital of Peru');
    const deferred = await waitFor(async () => recv.of('chatbot.reply', q2)[0], 10_000, 'chatbot.reply');
    expect(deferred.json).toMatchObject({ tier: 'model', intent: null, defer_reason: 'no match' });
    expect(Array.isArray(deferred.json.intent_candidates)).toBe(true);
  });
});
