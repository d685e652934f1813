import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession } from '../support/client.ts';
import { outbox } from '../support/outbox.ts';

const TRY = '/api/v1/chatbot/try';

/** `POST /api/v1/chatbot/try`: the chatbot's decision for a typed message, with nothing sent. */
describe('chatbot dry run (Try it)', () => {
  it('names the tier that would answer (rule, intent, model) with scores and the reply, and sends nothing', async () => {
    const t = await newTenant('try');
    const s = await readySession(t.api, 'try');

    // Nothing configured and the bot off (a new session starts disabled): nobody answers.
    const off = await t.api.post(TRY, { sessionKey: s.sessionId, text: 'where can I park' });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ tier: null, silentReason: 'chatbot disabled', reply: null, rule: null });

    // A text rule answers even with the bot off, and is named.
    const rule = await t.api.post('/api/v1/chatbot/rules', {
      mobid: '*',
      triggerType: 'contains',
      keyword: 'opening hours',
      replyType: 'text',
      response: 'We open at 9 am.',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const byRule = await t.api.post(TRY, { sessionKey: s.sessionId, text: 'What are your opening hours?' });
    expect(byRule.body).toMatchObject({
      tier: 'rule',
      silentReason: null,
      rule: { id: rule.body.rule.id, keyword: 'opening hours', triggerType: 'contains' },
      reply: 'We open at 9 am.',
    });

    // With the bot on and an intents file: a matching question is the intent's, with its score.
    const saved = await t.api.post('/api/v1/chatbot/intents', {
      intents: {
        meta: { name: 'try' },
        intents: [
          {
            id: 'parking',
            category: 'faq',
            action: 'parking_info',
            training_phrases: { en: ['is there parking', 'where can I park', 'car parking available'] },
            responses: { en: 'Free parking behind the building.' },
          },
        ],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const on = await t.api.post('/api/v1/chatbot/toggle', { mobid: s.sessionId, enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const byIntent = await t.api.post(TRY, { sessionKey: s.sessionId, text: 'where can I park' });
    expect(byIntent.body).toMatchObject({
      tier: 'intent',
      intent: { id: 'parking', score: 1, match: 'rule' },
      candidates: [{ id: 'parking', score: 1, match: 'rule' }],
      deferReason: null,
      reply: 'Free parking behind the building.',
    });

    // Anything else goes to the model, which a dry run never calls: no reply, and why the intents deferred.
    const byModel = await t.api.post(TRY, { sessionKey: s.sessionId, text: 'tell me a poem about the sea' });
    expect(byModel.body).toMatchObject({ tier: 'model', reply: null, rule: null, deferReason: 'no match' });

    // Tried on no session in particular: the tenant-wide (`global`) keys, where the bot is off.
    const global = await t.api.post(TRY, { text: 'where can I park' });
    expect(global.body).toMatchObject({ sessionKey: 'global', tier: null, silentReason: 'chatbot disabled' });

    // Nothing was sent through the session.
    expect(await outbox(s.sessionId)).toEqual([]);

    // Bad input is a 400 naming the field; no token is a 401.
    const empty = await t.api.post(TRY, { text: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/^text/);
    expect((await t.api.post(TRY, { text: 'x'.repeat(4097) })).status).toBe(400);
    expect((await api().post(TRY, { text: 'hello' })).status).toBe(401);
  });
});
