import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelChain, type ModelChainConfig, ModelUnavailableError } from '#shared/ai/chain';
import { DEFAULT_COOLDOWN, type KeyPoolConfig } from '#shared/ai/config';
import { creditsFor } from '#shared/ai/credits';
import { keyHash } from '#shared/ai/key-state';
import { readAiUsage, recordAiUsage } from '#shared/ai/usage';
import { aiKeyStateKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { type FakeAi, startFakeAi } from '../support/fake-ai.ts';
import { must } from '../support/must.ts';

/**
 * The model chain over real HTTP against the fake providers, with its key cool-downs in the local
 * DynamoDB the service uses. Keys are fresh per test, so cool-downs of other tests never apply.
 */
let ai: FakeAi;
beforeAll(async () => {
  ai = await startFakeAi();
});
afterAll(() => ai.close());
beforeEach(() => ai.reset());

/** n strings, typed as a tuple of n so that each index is known present. */
type Keys<N extends number, T extends string[] = []> = T['length'] extends N ? T : Keys<N, [...T, string]>;
const keys = <N extends number>(prefix: string, n: N) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${i}-${randomUUID()}`) as Keys<N>;

function chainConfig(over: Partial<ModelChainConfig> & { primaryKeys?: string[] }): ModelChainConfig {
  const { primaryKeys, ...rest } = over;
  return {
    primary: primaryKeys
      ? { name: 'primary', kind: 'anthropic', baseUrl: ai.url, keys: primaryKeys, model: 'claude-haiku-4-5' }
      : undefined,
    timeoutMs: 5_000,
    maxTokens: 256,
    cooldown: DEFAULT_COOLDOWN,
    startIndex: () => 0,
    ...rest,
  };
}

const fallbackPool = (kind: 'anthropic' | 'openai', poolKeys: string[]): KeyPoolConfig => ({
  name: 'fallback',
  kind,
  baseUrl: kind === 'openai' ? ai.openAiBaseUrl : ai.url,
  keys: poolKeys,
  model: kind === 'openai' ? 'gpt-fake-mini' : 'claude-fallback',
});

const bedrock = { modelId: 'anthropic.claude-fake-v1:0', region: 'us-east-1' };

const request = (text = 'Are you open on Sunday?') => ({
  tenantId: `t_${randomUUID()}`,
  sessionId: `s_${randomUUID()}`,
  system: { persona: 'You are Asha at Sunrise Clinic.', brain: { business: { name: 'Sunrise Clinic' } } },
  turns: [{ role: 'user' as const, text }],
});

const coolUntilOf = async (pool: string, key: string) =>
  (await dataTable.get<{ coolUntil: number; keyIndex: number }>(aiKeyStateKey(pool, keyHash(key)), true))
    ?.coolUntil;

describe('model chain', () => {
  it('rotates past a 429 key, and a second chain instance skips that key while it cools down', async () => {
    const k = keys('p', 3);
    ai.behave(k[0], { kind: 'status', status: 429, retryAfter: '120' });
    const cfg = chainConfig({ primaryKeys: k });

    const before = Date.now();
    const r = await createModelChain(cfg).reply(request('hello'));
    expect(r).toMatchObject({
      tier: 'primary',
      keyIndex: 1,
      text: 'Reply to: hello',
      model: 'claude-haiku-4-5',
    });
    expect(ai.requests.map((q) => q.key)).toEqual([k[0], k[1]]);
    const until = await coolUntilOf('primary', k[0]);
    expect(until).toBeGreaterThanOrEqual(before + 120_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 120_000);
    // The stored state names the key by index and hash only.
    const item = await dataTable.get(aiKeyStateKey('primary', keyHash(k[0])), true);
    expect(JSON.stringify(item)).not.toContain(k[0]);
    expect(item).toMatchObject({ keyIndex: 0, reason: 'rate limited' });

    ai.requests.length = 0;
    const again = await createModelChain(cfg).reply(request('again'));
    expect(again).toMatchObject({ tier: 'primary', keyIndex: 1 });
    expect(ai.requests.map((q) => q.key)).toEqual([k[1]]);
  });

  it('cools a 529 key briefly, a 401 key and a quota key for long, and a 429 without retry-after for the default', async () => {
    const k = keys('p', 5);
    ai.behave(k[0], { kind: 'status', status: 529 });
    ai.behave(k[1], { kind: 'status', status: 401 });
    ai.behave(k[2], { kind: 'status', status: 400, message: 'Your credit balance is too low' });
    ai.behave(k[3], { kind: 'status', status: 429 });
    const t0 = Date.now();
    const r = await createModelChain(chainConfig({ primaryKeys: k })).reply(request());
    expect(r).toMatchObject({ tier: 'primary', keyIndex: 4 });
    const near = (v: number | undefined, ms: number) => {
      expect(v).toBeGreaterThanOrEqual(t0 + ms);
      expect(v).toBeLessThanOrEqual(Date.now() + ms);
    };
    near(await coolUntilOf('primary', k[0]), DEFAULT_COOLDOWN.overloadedMs);
    near(await coolUntilOf('primary', k[1]), DEFAULT_COOLDOWN.authMs);
    near(await coolUntilOf('primary', k[2]), DEFAULT_COOLDOWN.quotaMs);
    near(await coolUntilOf('primary', k[3]), DEFAULT_COOLDOWN.rateLimitMs);
  });

  it('leaves the pool on a 5xx without cooling the key: the next hop answers', async () => {
    const p = keys('p', 2);
    const f = keys('f', 1);
    ai.behave(p[0], { kind: 'status', status: 500 });
    const r = await createModelChain(
      chainConfig({ primaryKeys: p, fallback: fallbackPool('anthropic', f) }),
    ).reply(request());
    expect(r).toMatchObject({ tier: 'fallback', keyIndex: 0 });
    expect(ai.requests.map((q) => q.key)).toEqual([p[0], f[0]]);
    expect(await coolUntilOf('primary', p[0])).toBeUndefined();
  });

  it('with every primary key exhausted, the Anthropic fallback pool answers', async () => {
    const p = keys('p', 2);
    const f = keys('f', 2);
    ai.behave(p[0], { kind: 'status', status: 429 });
    ai.behave(p[1], { kind: 'status', status: 529 });
    ai.behave(f[0], { kind: 'status', status: 429, retryAfter: '30' });
    const r = await createModelChain(
      chainConfig({ primaryKeys: p, fallback: fallbackPool('anthropic', f) }),
    ).reply(request());
    expect(r).toMatchObject({ tier: 'fallback', keyIndex: 1, model: 'claude-fallback' });
    expect(ai.requests.map((q) => [q.provider, q.key])).toEqual([
      ['anthropic', p[0]],
      ['anthropic', p[1]],
      ['anthropic', f[0]],
      ['anthropic', f[1]],
    ]);
    expect(await coolUntilOf('fallback', f[0])).toBeGreaterThan(Date.now());
  });

  it('with every primary key exhausted, an OpenAI-compatible fallback pool answers', async () => {
    const p = keys('p', 1);
    const f = keys('o', 1);
    ai.behave(p[0], { kind: 'status', status: 401 });
    const chain = createModelChain(chainConfig({ primaryKeys: p, fallback: fallbackPool('openai', f) }));
    const req = request('Do you have ENT doctors?');
    req.system = { ...req.system, instructions: 'Mention the booking link.' } as typeof req.system;
    const r = await chain.reply(req);
    expect(r).toMatchObject({ tier: 'fallback', keyIndex: 0, model: 'gpt-fake-mini' });
    expect(r.text).toBe('Reply to: Do you have ENT doctors?');
    const sent = must(
      ai.requests.find((q) => q.provider === 'openai'),
      "an entry of ai.requests where q.provider === 'openai'",
    );
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.key).toBe(f[0]);
    expect(sent.headers.authorization).toBeUndefined();
    const [system, user] = sent.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are Asha at Sunrise Clinic.');
    expect(system.content).toContain('"name":"Sunrise Clinic"');
    expect(system.content.indexOf('Mention the booking link.')).toBeGreaterThan(
      system.content.indexOf('Sunrise'),
    );
    expect(user).toEqual({ role: 'user', content: 'Do you have ENT doctors?' });
    expect(r.usage.input).toBeGreaterThan(0);
    expect(r.usage.output).toBeGreaterThan(0);

    // The same system prompt again: the provider reports it cached.
    const second = await chain.reply(req);
    expect(second.usage.cacheRead).toBeGreaterThan(0);
  });

  it('with the pool down, Bedrock answers (SigV4-signed invoke with the model id)', async () => {
    const p = keys('p', 1);
    const f = keys('f', 1);
    ai.behave(p[0], { kind: 'status', status: 529 });
    ai.behave(f[0], { kind: 'status', status: 503 });
    const r = await createModelChain(
      chainConfig({
        primaryKeys: p,
        fallback: fallbackPool('anthropic', f),
        bedrock: { ...bedrock, endpointUrl: ai.url },
      }),
    ).reply(request('hours?'));
    expect(r).toMatchObject({
      tier: 'bedrock',
      keyIndex: 0,
      model: bedrock.modelId,
      text: 'Reply to: hours?',
    });
    const sent = must(
      ai.requests.find((q) => q.provider === 'bedrock'),
      "an entry of ai.requests where q.provider === 'bedrock'",
    );
    expect(sent.path).toBe(`/model/${bedrock.modelId}/invoke`);
    expect(sent.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(sent.body.anthropic_version).toBe('bedrock-2023-05-31');
    expect(sent.body.system[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
  });

  it('with every hop down, throws ModelUnavailableError naming tiers and indexes, never a key', async () => {
    const p = keys('p', 2);
    const f = keys('o', 1);
    ai.behave(p[0], { kind: 'status', status: 429 });
    ai.behave(p[1], { kind: 'status', status: 401, message: `Incorrect API key provided: ${p[1]}` });
    ai.behave(f[0], { kind: 'status', status: 500, message: `key ${f[0]} broke` });
    ai.behave('bedrock', { kind: 'status', status: 500 });
    const chain = createModelChain(
      chainConfig({
        primaryKeys: p,
        fallback: fallbackPool('openai', f),
        bedrock: { ...bedrock, endpointUrl: ai.url },
      }),
    );
    const err = await chain.reply(request()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelUnavailableError);
    expect(err.name).toBe('ModelUnavailableError');
    expect(err.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(err.message).toContain('primary[0]: HTTP 429');
    expect(err.message).toContain('primary[1]: HTTP 401');
    expect(err.message).toContain('fallback[0]: HTTP 500');
    expect(err.message).toContain('bedrock: HTTP 500');
    for (const k of [...p, ...f]) expect(err.message).not.toContain(k);

    // Nothing configured at all is the same error.
    await expect(createModelChain(chainConfig({})).reply(request())).rejects.toBeInstanceOf(
      ModelUnavailableError,
    );
  });

  it('gives each hop its own timeout: a slow primary and a slow pool still leave time for Bedrock', async () => {
    const p = keys('p', 2);
    const f = keys('f', 1);
    ai.behave(p[0], { kind: 'answer', delayMs: 3_000 });
    ai.behave(f[0], { kind: 'answer', delayMs: 3_000 });
    const started = Date.now();
    const r = await createModelChain(
      chainConfig({
        primaryKeys: p,
        fallback: fallbackPool('anthropic', f),
        bedrock: { ...bedrock, endpointUrl: ai.url },
        timeoutMs: 400,
      }),
    ).reply(request());
    expect(r.tier).toBe('bedrock');
    expect(Date.now() - started).toBeLessThan(2_500);
    // A timeout is the provider's trouble, not the key's: the pool is left, the key not cooled.
    expect(ai.requests.map((q) => q.key)).toEqual([p[0], f[0], 'bedrock']);
    expect(await coolUntilOf('primary', p[0])).toBeUndefined();
  });

  it('sends persona and brain as cached system blocks, the instructions after them, and the turns', async () => {
    const k = keys('p', 1);
    const chain = createModelChain(chainConfig({ primaryKeys: k }));
    const brain = { business: { name: 'Sunrise Clinic' }, doctors: [{ name: 'Dr Rao', slots: ['10:00'] }] };
    const req = {
      tenantId: `t_${randomUUID()}`,
      sessionId: 's1',
      system: { persona: 'You are Asha.', brain, instructions: 'Offer the 10:00 slot.' },
      turns: [
        { role: 'user' as const, text: 'hi' },
        { role: 'assistant' as const, text: 'Hello! How can I help?' },
        { role: 'user' as const, text: 'Is Dr Rao in today?' },
      ],
    };
    const first = await chain.reply(req);
    const body = must(ai.requests[0], 'ai.requests[0]').body;
    expect(body.system).toEqual([
      { type: 'text', text: 'You are Asha.', cache_control: { type: 'ephemeral' } },
      {
        type: 'text',
        text: `Business knowledge (JSON):\n${JSON.stringify(brain)}`,
        cache_control: { type: 'ephemeral' },
      },
      { type: 'text', text: 'Instructions for this reply:\nOffer the 10:00 slot.' },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello! How can I help?' }] },
      { role: 'user', content: [{ type: 'text', text: 'Is Dr Rao in today?' }] },
    ]);
    expect(must(ai.requests[0], 'ai.requests[0]').headers['x-api-key']).toBeUndefined();
    expect(must(ai.requests[0], 'ai.requests[0]').headers.authorization).toBeUndefined();
    expect(first.usage.cacheWrite).toBeGreaterThan(0);
    expect(first.usage.cacheRead).toBe(0);

    // The next turn reuses the prefix: read from the cache, cheaper in credits.
    const second = await chain.reply({ ...req, system: { ...req.system, instructions: 'Be brief.' } });
    expect(second.usage.cacheRead).toBe(first.usage.cacheWrite);
    expect(second.usage.cacheWrite).toBe(0);
    expect(creditsFor(second.usage)).toBeLessThan(creditsFor(first.usage));
  });

  it('treats a blank reply as the provider failing: the chain leaves that pool', async () => {
    const k = keys('p', 2);
    ai.behave(k[0], { kind: 'answer', text: '   ' });
    ai.behave(k[1], { kind: 'answer', text: ' Yes, 9 to 5. ' });
    const r = await createModelChain(
      chainConfig({ primaryKeys: k, fallback: fallbackPool('anthropic', keys('f', 1)) }),
    ).reply(request());
    // A blank reply is the provider's failure, so the chain leaves the primary pool.
    expect(r).toMatchObject({ tier: 'fallback', text: 'Reply to: Are you open on Sunday?' });
  });
});

describe('model chain, more cases', () => {
  it('keeps a cool-down with its key when the key list is reordered', async () => {
    const [a, b, c] = keys('p', 3);
    ai.behave(a, { kind: 'status', status: 429, retryAfter: '60' });
    expect(await createModelChain(chainConfig({ primaryKeys: [a, b, c] })).reply(request())).toMatchObject({
      keyIndex: 1,
    });
    ai.requests.length = 0;
    // `a` moved to index 2; starting at index 1 the chain reaches it after `c`, and skips it.
    ai.behave(c, { kind: 'status', status: 529 });
    const r = await createModelChain(chainConfig({ primaryKeys: [b, c, a], startIndex: () => 1 })).reply(
      request(),
    );
    expect(r).toMatchObject({ tier: 'primary', keyIndex: 0 });
    expect(ai.requests.map((q) => q.key)).toEqual([c, b]);
  });

  it('sends images and PDFs as content blocks; an OpenAI-compatible pool takes images, not PDFs', async () => {
    const image = { type: 'image' as const, mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const pdf = { type: 'document' as const, mediaType: 'application/pdf' as const, data: 'JVBERi0xLjQ=' };
    const p = keys('p', 1);
    const o = keys('o', 1);
    ai.behave(p[0], { kind: 'status', status: 429 });
    const chain = createModelChain(
      chainConfig({
        primaryKeys: p,
        fallback: fallbackPool('openai', o),
        bedrock: { ...bedrock, endpointUrl: ai.url },
      }),
    );
    const withImage = await chain.reply({
      ...request(),
      turns: [
        { role: 'user', text: 'what is this?', content: [image, { type: 'text', text: 'what is this?' }] },
      ],
    });
    expect(withImage.tier).toBe('fallback');
    const primarySent = must(
      ai.requests.find((q) => q.provider === 'anthropic'),
      "an entry of ai.requests where q.provider === 'anthropic'",
    );
    expect(primarySent.body.messages[0].content[0]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: image.data },
    });
    const openAiSent = must(
      ai.requests.find((q) => q.provider === 'openai'),
      "an entry of ai.requests where q.provider === 'openai'",
    );
    expect(openAiSent.body.messages[1].content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } },
      { type: 'text', text: 'what is this?' },
    ]);

    ai.requests.length = 0;
    const withPdf = await chain.reply({
      ...request(),
      turns: [{ role: 'user', text: 'read this', content: [pdf] }],
    });
    // The primary key is cooling; the OpenAI-compatible pool cannot take a PDF; Bedrock can.
    expect(withPdf.tier).toBe('bedrock');
    expect(ai.requests.map((q) => q.provider)).toEqual(['bedrock']);
    expect(must(ai.requests[0], 'ai.requests[0]').body.messages[0].content[0]).toMatchObject({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf' },
    });
  });
});

describe('AI usage', () => {
  it('adds counters atomically and counts each event once, however often it is delivered', async () => {
    const tenant = `t_${randomUUID()}`;
    const tokens = { input: 120, output: 40, cacheRead: 3000, cacheWrite: 0 };
    const delta = { aiCalls: 1, messages: 1, tokens, credits: creditsFor(tokens), eventId: 'wamid.1' };
    expect(await recordAiUsage(tenant, 's1', delta)).toBe(true);
    expect(await recordAiUsage(tenant, 's1', delta)).toBe(false);
    await Promise.all([
      recordAiUsage(tenant, 's1', { ...delta, eventId: 'wamid.2' }),
      recordAiUsage(tenant, 's1', { ...delta, eventId: 'wamid.2' }),
      recordAiUsage(tenant, 's1', { docAnalyses: 1, eventId: 'wamid.3' }),
      recordAiUsage(tenant, 's2', { audioTranscriptions: 2, messages: 1 }),
    ]);
    const s1 = await readAiUsage(tenant, 's1');
    expect(s1).toMatchObject({
      sessionId: 's1',
      aiCalls: 2,
      docAnalyses: 1,
      audioTranscriptions: 0,
      messages: 2,
      inputTokens: 240,
      outputTokens: 80,
      cacheReadTokens: 6000,
      cacheWriteTokens: 0,
      credits: 1.24,
    });
    const all = await readAiUsage(tenant);
    expect(all.map((u) => [u.sessionId, u.aiCalls, u.audioTranscriptions])).toEqual([
      ['s1', 2, 0],
      ['s2', 0, 2],
    ]);
    // Another tenant sees none of it.
    expect(await readAiUsage(`t_${randomUUID()}`)).toEqual([]);
    expect(await readAiUsage(`t_${randomUUID()}`, 's1')).toMatchObject({ aiCalls: 0, credits: 0 });
  });
});
