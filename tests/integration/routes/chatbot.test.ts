import { beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  expectNotFound,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** /api/v1/chatbot and the legacy /api/chatbot in-process (functions/api/chatbot/). */
describe('chatbot routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('chatbot'));
  });

  it('keeps rules per tenant: create, list, delete; another tenant sees none and cannot delete', async () => {
    const created = await a.api.post('/api/v1/chatbot/rules', {
      mobid: '*',
      triggerType: 'exact',
      keyword: 'hours',
      replyType: 'text',
      response: 'We open at nine.',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.rule).toMatchObject({ mobid: '*', keyword: 'hours', response: 'We open at nine.' });
    const id = created.body.rule.id as string;
    const list = await a.api.get('/api/v1/chatbot/rules?mobid=*');
    expect(list.body.rules.map((r: { id: string }) => r.id)).toContain(id);
    expect((await b.api.get('/api/v1/chatbot/rules?mobid=*')).body.rules).toEqual([]);
    expectNotFound(await b.api.delete(`/api/v1/chatbot/rules/${id}`));
    const tried = await a.api.post('/api/v1/chatbot/try', { text: 'hours' });
    expect(tried.status, JSON.stringify(tried.body)).toBe(200);
    expect(tried.body).toMatchObject({ success: true, tier: 'rule', reply: 'We open at nine.' });
    expect((await a.api.delete(`/api/v1/chatbot/rules/${id}`)).status).toBe(200);
    expectNotFound(await a.api.delete(`/api/v1/chatbot/rules/${id}`));
  });

  it('names the bad field of each body', async () => {
    expectInvalid(
      await a.api.post('/api/v1/chatbot/rules', {
        mobid: '*',
        triggerType: 'sometimes',
        keyword: 'x',
        replyType: 'text',
        response: 'y',
      }),
      'triggerType',
    );
    expectInvalid(await a.api.post('/api/v1/chatbot/toggle', { mobid: '*' }), 'enabled');
    expectInvalid(await a.api.post('/api/v1/chatbot/pure-extractor', { enabled: 'no' }), 'enabled');
    expectInvalid(
      await a.api.post('/api/v1/chatbot/takeover', { sessionId, chatId: '15550001111' }),
      'paused',
    );
    expectInvalid(await a.api.post('/api/v1/chatbot/intents', {}), 'intents');
    expectInvalid(await a.api.post('/api/v1/chatbot/try', {}), 'text');
    expectInvalid(await a.api.get('/api/v1/chatbot/takeover'), 'sessionId');
    expectInvalid(await a.api.get('/api/v1/chatbot/templates/bakery'), 'profile');
    expectInvalid(await a.api.post('/api/chatbot/brain', { brain: { business: {} } }), 'sessionId');
  });

  it('toggles the switches of a key and reads them back', async () => {
    const on = await a.api.post('/api/v1/chatbot/toggle', { mobid: sessionId, enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toMatchObject({ status: 'success', enabled: true });
    const voice = await a.api.post('/api/v1/chatbot/voice-replies', { enabled: true, sessionKey: sessionId });
    expect(voice.status).toBe(200);
    const switches = await a.api.get(`/api/v1/chatbot/switches?sessionKey=${sessionId}`);
    expect(switches.status).toBe(200);
    expect(switches.body).toMatchObject({ success: true, chatbotEnabled: true, voiceReplies: true });
    // Another tenant's switches of the same key are its own.
    const theirs = await b.api.get(`/api/v1/chatbot/switches?sessionKey=${sessionId}`);
    expect(theirs.body.voiceReplies).toBe(false);
  });

  it("pauses a chat by takeover; another tenant's session is a 404", async () => {
    const paused = await a.api.post('/api/v1/chatbot/takeover', {
      sessionId,
      chatId: '15550001111',
      paused: true,
      minutes: 5,
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body).toMatchObject({ success: true, sessionId, paused: true, until: expect.any(String) });
    const list = await a.api.get(`/api/v1/chatbot/takeover?sessionId=${sessionId}`);
    expect(list.body.paused.length).toBe(1);
    expectNotFound(await b.api.get(`/api/v1/chatbot/takeover?sessionId=${sessionId}`));
    expectNotFound(
      await b.api.post('/api/v1/chatbot/takeover', { sessionId, chatId: '15550001111', paused: true }),
    );
    const minutes = await a.api.post('/api/v1/chatbot/takeover/minutes', {
      minutes: 15,
      sessionKey: sessionId,
    });
    expect(minutes.body).toMatchObject({ success: true, minutes: 15 });
  });

  it('saves a prompt and answers it; another tenant has none', async () => {
    const saved = await a.api.post('/api/v1/chatbot/prompt', { sessionKey: sessionId, prompt: 'Be brief.' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ success: true, source: 'direct', version: expect.any(String) });
    const got = await a.api.get(`/api/v1/chatbot/prompt?sessionKey=${sessionId}`);
    expect(got.body).toMatchObject({ success: true, prompt: 'Be brief.' });
    expectNotFound(await b.api.get(`/api/v1/chatbot/prompt?sessionKey=${sessionId}`));
    expectNotFound(await b.api.get('/api/v1/chatbot/intents'));
  });

  it('answers a profile template without a token, and extracted data (none) with one', async () => {
    const tpl = await caller().get('/api/v1/chatbot/templates/clinic');
    expect(tpl.status).toBe(200);
    expect(tpl.body).toMatchObject({ success: true, profile: 'clinic', prompt: expect.any(String) });
    const data = await a.api.get(`/api/v1/chatbot/extracted-data?sessionKey=${sessionId}`);
    expect(data.status, JSON.stringify(data.body)).toBe(200);
    expect(data.body).toMatchObject({ success: true, count: 0, records: [] });
    expect((await caller().get('/api/v1/chatbot/rules')).status).toBe(401);
  });
});
