import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession, waitFor } from '../support/client.ts';
import { outbox } from '../support/outbox.ts';

const RULES = '/api/v1/chatbot/rules';
const valid = {
  mobid: '*',
  triggerType: 'contains',
  keyword: 'opening hours',
  replyType: 'text',
  response: 'We are open 9 to 5.',
};

describe('chatbot rules API', () => {
  it('creates, lists by mobid and deletes rules', async () => {
    const t = await newTenant('rules');
    const created = await t.api.post(RULES, valid);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.success).toBe(true);
    const rule = created.body.rule;
    expect(rule.id).toMatch(/^rule_\d+$/);
    expect(rule).toMatchObject(valid);
    expect(Date.parse(rule.createdAt)).not.toBeNaN();

    const perSession = await t.api.post(RULES, {
      mobid: '919800000001',
      triggerType: 'regex',
      keyword: '^(price|cost)\\s+of\\s+\\w+',
      replyType: 'ai_response',
      response: 'Quote the price list from the brain.',
    });
    expect(perSession.status, JSON.stringify(perSession.body)).toBe(201);
    expect(perSession.body.rule.id).not.toBe(rule.id);
    const fallback = await t.api.post(RULES, {
      mobid: '919800000001',
      triggerType: 'ai_fallback',
      keyword: '',
      replyType: 'ai_response',
      response: '',
    });
    expect(fallback.status, JSON.stringify(fallback.body)).toBe(201);

    const star = await t.api.get(`${RULES}?mobid=*`);
    expect(star.status).toBe(200);
    expect(star.body.rules).toEqual([rule]);
    const session = await t.api.get(`${RULES}?mobid=919800000001`);
    expect(session.body.rules.map((r: { id: string }) => r.id)).toEqual([
      perSession.body.rule.id,
      fallback.body.rule.id,
    ]);
    const all = await t.api.get(RULES);
    expect(all.body.rules).toHaveLength(3);

    const del = await t.api.delete(`${RULES}/${rule.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, id: rule.id });
    expect((await t.api.get(`${RULES}?mobid=*`)).body.rules).toEqual([]);
    // Deleting it again, or an id that never existed, is a 404.
    expect((await t.api.delete(`${RULES}/${rule.id}`)).status).toBe(404);
    const unknown = await t.api.delete(`${RULES}/rule_123`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 400 naming the field for every invalid body', async () => {
    const t = await newTenant('rules-bad');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, mobid: undefined }, 'mobid'],
      [{ ...valid, mobid: 'a#b' }, 'mobid'],
      [{ ...valid, mobid: '' }, 'mobid'],
      [{ ...valid, triggerType: undefined }, 'triggerType'],
      [{ ...valid, triggerType: 'startsWith' }, 'triggerType'],
      [{ ...valid, keyword: undefined }, 'keyword'],
      [{ ...valid, keyword: 42 }, 'keyword'],
      [{ ...valid, keyword: '   ' }, 'keyword'],
      [{ ...valid, triggerType: 'regex', keyword: '(unclosed' }, 'keyword'],
      [{ ...valid, triggerType: 'regex', keyword: '(a)\\1' }, 'keyword'],
      [{ ...valid, triggerType: 'regex', keyword: 'foo(?=bar)' }, 'keyword'],
      [{ ...valid, triggerType: 'regex', keyword: 'a'.repeat(501) }, 'keyword'],
      [{ ...valid, replyType: undefined }, 'replyType'],
      [{ ...valid, replyType: 'voice' }, 'replyType'],
      [{ ...valid, response: undefined }, 'response'],
      [{ ...valid, response: '' }, 'response'],
    ];
    for (const [body, field] of cases) {
      const r = await t.api.post(RULES, body);
      expect(r.status, `${field}: ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.error.message, JSON.stringify(r.body)).toMatch(new RegExp(`^${field}\\b`));
    }
    expect((await t.api.post(RULES, 'not json')).status).toBe(400);
    expect((await t.api.get(RULES)).body.rules).toEqual([]);
  });

  it('stores a catastrophic-looking regex on the linear-time engine, and the service stays responsive', async () => {
    const t = await newTenant('rules-redos');
    const started = Date.now();
    const r = await t.api.post(RULES, { ...valid, triggerType: 'regex', keyword: '(a+)+$' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const nested = await t.api.post(RULES, {
      ...valid,
      triggerType: 'regex',
      keyword: '^(([a-z])+.)+[A-Z]([a-z])+$',
    });
    expect(nested.status).toBe(201);
    expect((await t.api.get(RULES)).body.rules).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('requires a token, and tenant B can neither list nor delete tenant A’s rules', async () => {
    const a = await newTenant('rules-a');
    const b = await newTenant('rules-b');
    expect((await api().get(RULES)).status).toBe(401);
    expect((await api().post(RULES, valid)).status).toBe(401);
    const created = await a.api.post(RULES, { ...valid, mobid: 'global' });
    const id = created.body.rule.id as string;

    expect((await b.api.get(`${RULES}?mobid=global`)).body.rules).toEqual([]);
    expect((await b.api.get(RULES)).body.rules).toEqual([]);
    expect((await b.api.delete(`${RULES}/${id}`)).status).toBe(404);
    expect((await api().request('DELETE', `${RULES}/${id}`)).status).toBe(401);

    // A's rule is untouched.
    expect((await a.api.get(`${RULES}?mobid=global`)).body.rules.map((r: { id: string }) => r.id)).toEqual([
      id,
    ]);
  });
});

describe('chatbot rules through the running service', () => {
  let seq = 0;
  const customer = () =>
    `1666${String(Date.now() % 1_000_000).padStart(6, '0')}${String(seq++ % 100).padStart(2, '0')}`;
  const sim = api();
  const replyTo = async (sessionId: string, phone: string) =>
    waitFor(
      async () => (await outbox(sessionId)).find((m) => m.to.startsWith(phone)),
      40_000,
      `a reply to ${phone}`,
    );

  it('follows the precedence, and a catastrophic regex is evaluated without stalling anything', async () => {
    const t = await newTenant('rules-live');
    const s = await readySession(t.api);
    const add = async (rule: Record<string, unknown>) => {
      const r = await t.api.post(RULES, { replyType: 'text', ...rule });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    // The session's own regex is tried before any all-sessions rule; on a backtracking engine this
    // pattern takes exponential time on a run of `a`s that does not end the message.
    await add({ mobid: s.mobid, triggerType: 'regex', keyword: '(a+)+$', response: 'regex matched' });
    await add({ mobid: '*', triggerType: 'contains', keyword: 'ping', response: 'pong' });
    await add({ mobid: '*', triggerType: 'exact', keyword: 'hello', response: 'hello from all sessions' });
    await add({
      mobid: s.sessionId,
      triggerType: 'exact',
      keyword: 'Hélló',
      response: 'hello from this session',
    });

    const send = async (from: string, text: string) => {
      const r = await sim.post('/_sim/inbound', { sessionId: s.sessionId, from, name: 'Customer', text });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    const [c1, c2, c3] = [customer(), customer(), customer()];
    const started = Date.now();
    await send(c1, `${'a'.repeat(64)}! ping`);
    await send(c2, 'a'.repeat(5_000));
    await send(c3, 'HELLO!');
    expect((await replyTo(s.sessionId, c1)).text).toBe('pong');
    expect((await replyTo(s.sessionId, c2)).text).toBe('regex matched');
    expect((await replyTo(s.sessionId, c3)).text).toBe('hello from this session');
    expect(Date.now() - started).toBeLessThan(45_000);
  }, 60_000);
});
