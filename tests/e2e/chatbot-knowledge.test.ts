import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Brain } from '#shared/chatbot/brain-schema';
import { Intents } from '#shared/chatbot/intents-schema';
import { api, newTenant, readySession } from '../support/client.ts';

/** Brain, prompt and intents through HTTP: direct and remote writes, precedence, older paths, tenants. */

interface Served {
  status?: number;
  type: string;
  body: string;
}

/** A local HTTP server standing in for a user's remote brain/prompt host. */
let remote: { url: (name: string) => string; close(): Promise<void> };
const files: Record<string, Served> = {};

beforeAll(async () => {
  const server: Server = createServer((req, res) => {
    const f = files[(req.url ?? '/').slice(1)];
    if (!f) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    res.writeHead(f.status ?? 200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  remote = {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
});
afterAll(() => remote.close());

const brainOf = (name: string, extra: Record<string, unknown> = {}) => ({ business: { name }, ...extra });

describe('chatbot knowledge: brain, prompt, intents', () => {
  it('serves a complete brain, prompt and intents file for each profile without credentials', async () => {
    for (const profile of ['clinic', 'appliances', 'ecommerce', 'salon']) {
      const r = await api().get(`/api/v1/chatbot/templates/${profile}`);
      expect(r.status, profile).toBe(200);
      expect(r.body.success).toBe(true);
      expect(Brain.safeParse(r.body.brain).success, profile).toBe(true);
      expect(r.body.brain.business.profile).toBe(profile);
      expect(r.body.prompt.length).toBeGreaterThan(100);
      const intents = Intents.parse(r.body.intents);
      expect(
        intents.intents.every((i) => i.training_phrases.en?.length && i.training_phrases.ml?.length),
      ).toBe(true);
    }
    const clinic = (await api().get('/api/v1/chatbot/templates/clinic')).body.brain;
    expect(clinic.doctors.length).toBeGreaterThan(0);
    expect(clinic.doctors[0].availability.monday[0]).toMatch(/^\d\d:\d\d-\d\d:\d\d$/);
    const unknown = await api().get('/api/v1/chatbot/templates/garage');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^profile:/);
  });

  it('refuses reads and writes without a tenant token', async () => {
    expect((await api().get('/api/v1/chatbot/brain?sessionKey=global')).status).toBe(401);
    expect(
      (await api().post('/api/v1/chatbot/brain', { sessionKey: 'global', brainData: brainOf('X') })).status,
    ).toBe(401);
    expect((await api().post('/api/v1/chatbot/prompt', { prompt: 'hi' })).status).toBe(401);
    expect(
      (await api().post('/api/chatbot/intents', { tenant: 'clinic', intents: { intents: [] } })).status,
    ).toBe(401);
    expect((await api().get('/api/chatbot/brain')).status).toBe(401);
  });

  it('stores a brain directly and answers the key it came from, falling back to global', async () => {
    const t = await newTenant('brain-direct');
    expect((await t.api.get('/api/v1/chatbot/brain?sessionKey=anything')).status).toBe(404);

    const g = await t.api.post('/api/v1/chatbot/brain', {
      sessionKey: 'global',
      brainData: brainOf('Global Co'),
    });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ success: true, sessionKey: 'global', source: 'direct' });
    expect(g.body.version).toMatch(/^[0-9a-f]{16}$/);

    const own = brainOf('Own Co', { faq: [{ q: 'Open?', a: 'Yes' }], customField: { kept: true } });
    expect((await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'shop-7', brainData: own })).status).toBe(
      200,
    );

    const hit = await t.api.get('/api/v1/chatbot/brain?sessionKey=shop-7');
    expect(hit.body).toMatchObject({
      success: true,
      sessionKey: 'shop-7',
      resolvedFrom: 'shop-7',
      brain: own,
    });
    const fallback = await t.api.get('/api/v1/chatbot/brain?sessionKey=other-key');
    expect(fallback.body).toMatchObject({
      resolvedFrom: 'global',
      brain: { business: { name: 'Global Co' } },
    });
    expect((await t.api.get('/api/v1/chatbot/brain')).body.resolvedFrom).toBe('global');

    // A bad brain names the field; both or neither of brainData / brainUrl is refused.
    const bad = await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'k', brainData: { business: {} } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^brainData\.business\.name:/);
    const slot = await t.api.post('/api/v1/chatbot/brain', {
      brainData: brainOf('C', { doctors: [{ name: 'Dr A', availability: { monday: ['9 to 12'] } }] }),
    });
    expect(slot.status).toBe(400);
    expect(slot.body.error.message).toMatch(/^brainData\.doctors\.0\.availability\.monday\.0:/);
    const both = await t.api.post('/api/v1/chatbot/brain', {
      brainData: brainOf('C'),
      brainUrl: 'https://x.example/b',
    });
    expect(both.status).toBe(400);
    expect((await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'k' })).status).toBe(400);
    expect(
      (await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'a#b', brainData: brainOf('C') })).status,
    ).toBe(400);
  });

  it('stores a brain too large for one DynamoDB item (near 1 MiB, ~420 KB gzipped: kept in S3) and reads it back whole', async () => {
    const t = await newTenant('brain-large');
    const items = Array.from({ length: 8_500 }, (_, i) => ({
      sku: `SKU-${i}-${randomBytes(12).toString('hex')}`,
      name: randomBytes(24).toString('base64'),
      price: i,
      inStock: i % 2 === 0,
    }));
    const big = brainOf('Big Shop', { stock: { items } });
    expect(JSON.stringify(big).length).toBeGreaterThan(900_000);
    const saved = await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'big', brainData: big });
    expect(saved.status).toBe(200);
    expect(saved.body.bytes).toBe(Buffer.byteLength(JSON.stringify(big)));
    const got = await t.api.get('/api/v1/chatbot/brain?sessionKey=big');
    expect(got.body.brain).toEqual(big);
    expect(got.body.version).toBe(saved.body.version);
  });

  it("follows a session's precedence: mobile, session id, mobid, tenant profile, global", async () => {
    const t = await newTenant('brain-precedence');
    const s = await readySession(t.api);
    const save = (sessionKey: string, name: string) =>
      t.api.post('/api/v1/chatbot/brain', { sessionKey, brainData: brainOf(name) });
    const resolved = async (key: string) => (await t.api.get(`/api/v1/chatbot/brain?sessionKey=${key}`)).body;

    await save('global', 'G');
    expect((await resolved(s.sessionId)).resolvedFrom).toBe('global');
    // The tenant's profile comes from the older path's `tenant`.
    const legacy = await t.api.post('/api/chatbot/brain', {
      sessionId: 'clinic',
      tenant: 'clinic',
      brain: brainOf('P'),
    });
    expect(legacy.body).toMatchObject({ success: true, profile: 'clinic' });
    expect((await resolved(s.sessionId)).resolvedFrom).toBe('clinic');
    await save(s.mobid, 'M');
    expect((await resolved(s.sessionId)).resolvedFrom).toBe(s.mobid);
    await save(s.sessionId, 'S');
    expect((await resolved(s.mobid)).resolvedFrom).toBe(s.sessionId);
    await save(s.mobile_number, 'N');
    for (const key of [s.sessionId, s.mobid, s.mobile_number]) {
      const b = await resolved(key);
      expect(b, key).toMatchObject({
        sessionKey: key,
        resolvedFrom: s.mobile_number,
        brain: { business: { name: 'N' } },
      });
    }
    // The older GET answers the same resolution.
    const old = await t.api.get(`/api/chatbot/brain?sessionId=${s.sessionId}&tenant=clinic`);
    expect(old.body).toMatchObject({ success: true, resolvedFrom: s.mobile_number });
    expect((await t.api.get('/api/chatbot/brain?tenant=clinic')).body.resolvedFrom).toBe('clinic');
  });

  it('reads a remote brain now, keeps its URL, and refuses bad remote answers with a 400 naming brainUrl', async () => {
    const t = await newTenant('brain-remote');
    const remoteBrain = brainOf('Remote Clinic', { location: { city: 'Kochi' } });
    files['brain.json'] = { type: 'application/json', body: JSON.stringify(remoteBrain) };
    const ok = await t.api.post('/api/v1/chatbot/brain', {
      sessionKey: 'r1',
      brainUrl: remote.url('brain.json'),
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, source: 'remote', brainUrl: remote.url('brain.json') });
    const got = await t.api.get('/api/v1/chatbot/brain?sessionKey=r1');
    expect(got.body).toMatchObject({
      brain: remoteBrain,
      source: 'remote',
      brainUrl: remote.url('brain.json'),
    });

    files['page.html'] = { type: 'text/html', body: '<html>not json</html>' };
    files['invalid.json'] = {
      type: 'application/json',
      body: JSON.stringify({ business: { tagline: 'no name' } }),
    };
    files['huge.json'] = {
      type: 'application/json',
      body: JSON.stringify(brainOf('Big', { description: 'x'.repeat(1024 * 1024 + 10) })),
    };
    files['gone.json'] = { status: 500, type: 'application/json', body: '{}' };
    const cases: Array<[string, RegExp]> = [
      ['page.html', /^brainUrl: the URL did not answer JSON/],
      ['invalid.json', /^brainUrl: the answer is not a valid brain: business\.name/],
      ['huge.json', /^brainUrl: .*more than 1048576 bytes/],
      ['gone.json', /^brainUrl: the URL answered HTTP 500/],
      ['missing.json', /^brainUrl: the URL answered HTTP 404/],
    ];
    for (const [name, message] of cases) {
      const r = await t.api.post('/api/v1/chatbot/brain', { sessionKey: 'r1', brainUrl: remote.url(name) });
      expect(r.status, name).toBe(400);
      expect(r.body.error.code, name).toBe('VALIDATION_FAILED');
      expect(r.body.error.message, name).toMatch(message);
    }
    // A refused remote never replaced the stored brain.
    expect((await t.api.get('/api/v1/chatbot/brain?sessionKey=r1')).body.brain).toEqual(remoteBrain);
    const notUrl = await t.api.post('/api/v1/chatbot/brain', {
      sessionKey: 'r1',
      brainUrl: 'ftp://x/b.json',
    });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error.message).toMatch(/^brainUrl:/);
  });

  it('stores prompts directly or from a URL (text or JSON), at most 32 KiB, with fallback to global', async () => {
    const t = await newTenant('prompt');
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=x')).status).toBe(404);
    const g = await t.api.post('/api/v1/chatbot/prompt', { sessionKey: 'global', prompt: 'You are Asha.' });
    expect(g.body).toMatchObject({ success: true, sessionKey: 'global', source: 'direct' });
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=x')).body).toMatchObject({
      success: true,
      sessionKey: 'x',
      resolvedFrom: 'global',
      prompt: 'You are Asha.',
    });

    files['persona.txt'] = { type: 'text/plain; charset=utf-8', body: 'You are Meera, be brief. മലയാളം ok.' };
    const txt = await t.api.post('/api/v1/chatbot/prompt', {
      sessionKey: 'x',
      promptUrl: remote.url('persona.txt'),
    });
    expect(txt.body).toMatchObject({ success: true, source: 'remote', promptUrl: remote.url('persona.txt') });
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=x')).body).toMatchObject({
      resolvedFrom: 'x',
      prompt: 'You are Meera, be brief. മലയാളം ok.',
      promptUrl: remote.url('persona.txt'),
    });
    files['persona.json'] = { type: 'application/json', body: JSON.stringify({ prompt: 'From JSON.' }) };
    await t.api.post('/api/v1/chatbot/prompt', { sessionKey: 'y', promptUrl: remote.url('persona.json') });
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=y')).body.prompt).toBe('From JSON.');

    files['long.txt'] = { type: 'text/plain', body: 'a'.repeat(33 * 1024) };
    const long = await t.api.post('/api/v1/chatbot/prompt', {
      sessionKey: 'y',
      promptUrl: remote.url('long.txt'),
    });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^promptUrl: .*more than 32768 bytes/);
    const direct = await t.api.post('/api/v1/chatbot/prompt', {
      sessionKey: 'y',
      prompt: 'a'.repeat(33 * 1024),
    });
    expect(direct.status).toBe(400);
    expect(direct.body.error.message).toMatch(/^prompt:/);
    files['bad.json'] = { type: 'application/json', body: JSON.stringify({ persona: 1 }) };
    const bad = await t.api.post('/api/v1/chatbot/prompt', {
      sessionKey: 'y',
      promptUrl: remote.url('bad.json'),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^promptUrl:/);

    // The older path takes sessionId (or sessionKey).
    const old = await t.api.post('/api/chatbot/prompt', { sessionId: 'z', prompt: 'Older path.' });
    expect(old.body).toMatchObject({ success: true, sessionId: 'z' });
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=z')).body.prompt).toBe('Older path.');
    await t.api.post('/api/chatbot/prompt', { sessionKey: 'w', prompt: 'By key.' });
    expect((await t.api.get('/api/v1/chatbot/prompt?sessionKey=w')).body.prompt).toBe('By key.');
  });

  it('saves intents with defaults and a content version; a bad field is a 400 naming its path', async () => {
    const t = await newTenant('intents');
    const intents = {
      meta: { industry: 'salon' },
      intents: [
        {
          id: 'hours',
          category: 'info',
          action: 'answer_hours',
          training_phrases: { en: ['when are you open'], ml: ['എപ്പോൾ തുറക്കും'] },
          responses: { en: 'Open 10-8.' },
        },
      ],
    };
    const saved = await t.api.post('/api/chatbot/intents', { tenant: 'unknown-folder', intents });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, count: 1, profile: 'salon' });
    const again = await t.api.post('/api/v1/chatbot/intents', { intents });
    expect(again.body.version).toBe(saved.body.version);

    const got = await t.api.get('/api/v1/chatbot/intents');
    expect(got.body.version).toBe(saved.body.version);
    expect(got.body.intents.runtime_policy.confidence_policy).toEqual({
      rule_match_no_ai: 0.9,
      semantic_match_no_ai: 0.84,
      skip_llm_simple_template: true,
    });
    expect(got.body.intents.intents[0].enabled).toBe(true);

    const withBad = (patch: Record<string, unknown>) => ({
      tenant: 'clinic',
      intents: {
        ...intents,
        intents: [intents.intents[0], { ...intents.intents[0], id: 'second', ...patch }],
      },
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ training_phrases: { en: [''] } }, 'intents.intents.1.training_phrases.en.0:'],
      [{ training_phrases: { en: ['x'.repeat(301)] } }, 'intents.intents.1.training_phrases.en.0:'],
      [{ category: undefined }, 'intents.intents.1.category:'],
      [{ enabled: 'yes' }, 'intents.intents.1.enabled:'],
      [{ id: 'hours' }, 'intents.intents.1.id: duplicate'],
    ];
    for (const [patch, prefix] of cases) {
      const r = await t.api.post('/api/chatbot/intents', withBad(patch));
      expect(r.status, prefix).toBe(400);
      expect(r.body.error.message.startsWith(prefix), r.body.error.message).toBe(true);
    }
    const policy = await t.api.post('/api/chatbot/intents', {
      intents: { ...intents, runtime_policy: { confidence_policy: { rule_match_no_ai: 2 } } },
    });
    expect(policy.body.error.message).toMatch(
      /^intents\.runtime_policy\.confidence_policy\.rule_match_no_ai:/,
    );
    // Refused saves left the stored version alone.
    expect((await t.api.get('/api/v1/chatbot/intents')).body.version).toBe(saved.body.version);
  });

  it("keeps tenants apart: B can neither read nor change A's brain, prompt or intents", async () => {
    const a = await newTenant('iso-a');
    const b = await newTenant('iso-b');
    const s = await readySession(a.api);
    await a.api.post('/api/v1/chatbot/brain', { sessionKey: s.mobid, brainData: brainOf('A only') });
    await a.api.post('/api/v1/chatbot/brain', { sessionKey: 'global', brainData: brainOf('A global') });
    await a.api.post('/api/v1/chatbot/prompt', { sessionKey: s.mobid, prompt: 'A persona' });
    await a.api.post('/api/chatbot/intents', {
      intents: { intents: [{ id: 'a', category: 'c', action: 'x', training_phrases: { en: ['a secret'] } }] },
    });

    for (const key of [s.mobid, s.sessionId, s.mobile_number, 'global']) {
      expect((await b.api.get(`/api/v1/chatbot/brain?sessionKey=${key}`)).status, key).toBe(404);
      expect((await b.api.get(`/api/v1/chatbot/prompt?sessionKey=${key}`)).status, key).toBe(404);
      expect((await b.api.get(`/api/chatbot/brain?sessionId=${key}`)).status, key).toBe(404);
    }
    expect((await b.api.get('/api/v1/chatbot/intents')).status).toBe(404);

    // B's writes to the same keys land in B's own tenant.
    await b.api.post('/api/v1/chatbot/brain', { sessionKey: s.mobid, brainData: brainOf('B') });
    await b.api.post('/api/chatbot/prompt', { sessionId: s.mobid, prompt: 'B persona' });
    await b.api.post('/api/chatbot/intents', { intents: { intents: [] } });
    expect((await a.api.get(`/api/v1/chatbot/brain?sessionKey=${s.mobid}`)).body.brain.business.name).toBe(
      'A only',
    );
    expect((await a.api.get(`/api/v1/chatbot/prompt?sessionKey=${s.mobid}`)).body.prompt).toBe('A persona');
    expect((await a.api.get('/api/v1/chatbot/intents')).body.intents.intents).toHaveLength(1);
    expect((await b.api.get(`/api/v1/chatbot/brain?sessionKey=${s.mobid}`)).body.brain.business.name).toBe(
      'B',
    );
  });
});
