import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionReady, waitFor } from '../support/client.ts';
import { type FakeAi, startFakeAi } from '../support/fake-ai.ts';
import { jsonClient } from '../support/http.ts';
import { must } from '../support/must.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';

/**
 * The model chain through the running service: the whole service (API, host with the simulated
 * network, consumers) in a child process on a resource prefix of its own, so that the keys this
 * test makes fail (and their cool-downs, kept in that prefix's table) touch no other test. The
 * primary pool has two keys, the fallback pool one (another Anthropic-compatible endpoint), and
 * Bedrock is the last hop: all three are this file's own fake provider.
 */
const P0 = 'sk-chain-primary-0';
const P1 = 'sk-chain-primary-1';
const F0 = 'sk-chain-fallback-0';
const BEDROCK_MODEL = 'anthropic.claude-e2e-v1';

let fake: FakeAi;
let proc: ChildProcess;
let client: ReturnType<typeof jsonClient>;
let anon: ReturnType<typeof jsonClient>;
let sessionId: string;
let mobid: string;

beforeAll(async () => {
  fake = await startFakeAi();
  const started = await spawnApi({
    WITH_HOST: 'true',
    MESSAGING_DRIVER: 'simulator',
    RESOURCE_PREFIX: `chain${Date.now() % 1_000_000}`,
    SIM_NETWORK_URL: '',
    PUBLIC_BASE_URL: '',
    SEND_INTERVAL_MS: '0',
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEYS: `${P0},${P1}`,
    AI_FALLBACK_KIND: 'anthropic',
    AI_FALLBACK_BASE_URL: fake.url,
    AI_FALLBACK_API_KEYS: F0,
    BEDROCK_ENDPOINT_URL: fake.url,
    BEDROCK_MODEL_ID: BEDROCK_MODEL,
    CHATBOT_DEBOUNCE_MS: '200',
    CHATBOT_PAUSE_MIN_MS: '0',
    CHATBOT_PAUSE_MAX_MS: '20',
    CHATBOT_TYPING_MIN_MS: '0',
    CHATBOT_TYPING_MAX_MS: '50',
  });
  proc = started.proc;
  anon = jsonClient(started.baseUrl);
  const token = (await anon.post('/api/auth/token', { apiKey: process.env.ADMIN_API_KEY })).body.token;
  client = jsonClient(started.baseUrl, token);
  const created = await client.post('/api/sessions', { name: 'chain' });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  sessionId = created.body.session.sessionId;
  const ready = await sessionReady(client, sessionId, 20_000);
  mobid = ready.mobid;
  const on = await client.post('/api/v1/chatbot/toggle', { mobid: sessionId, enabled: true });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
}, 60_000);

afterAll(async () => {
  if (proc) await stopProcess(proc);
  await fake?.close();
});

let seq = 0;
/** A customer of its own per question, so that each turn is answered on its own. */
async function ask(text: string): Promise<{ reply: string; keys: string[] }> {
  const from = `1666${String(Date.now() % 1_000_000).padStart(6, '0')}${seq++}`;
  const before = fake.requests.length;
  const r = await anon.post('/_sim/inbound', { sessionId, from, name: 'Customer', text });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const sent = await waitFor(
    async () => {
      const out = (await anon.get(`/_sim/outbox?sessionId=${sessionId}`)).body.messages as Array<{
        to: string;
        text?: string;
      }>;
      return out.find((m) => m.to.startsWith(from));
    },
    20_000,
    `the reply to "${text}"`,
  );
  return { reply: sent.text ?? '', keys: fake.requests.slice(before).map((q) => q.key) };
}

describe('model chain through the running service', () => {
  it('rotates past a 429 key, then the fallback pool, then Bedrock; usage counts each answered turn once', async () => {
    // A tenant starts at a key of its own (so the provider's prompt cache keeps hitting): learn it.
    const warm = await ask('Hello');
    expect(warm.reply).toBe('Reply to: Hello');
    expect(warm.keys).toHaveLength(1);
    const start = must(warm.keys[0], 'warm.keys[0]');
    const other = start === P0 ? P1 : P0;

    // That key is rate limited: the next one answers.
    fake.behave(start, { kind: 'status', status: 429, retryAfter: '120' });
    const first = await ask('What are your hours?');
    expect(first.reply).toBe('Reply to: What are your hours?');
    expect(first.keys).toEqual([start, other]);

    // Both primary keys exhausted: the first is still cooling down (skipped without a request),
    // the second now refuses too, and the fallback pool answers.
    fake.behave(other, { kind: 'status', status: 429, retryAfter: '120' });
    const second = await ask('Do you open on Sunday?');
    expect(second.reply).toBe('Reply to: Do you open on Sunday?');
    expect(second.keys).toEqual([other, F0]);

    // The fallback pool is down as well: Bedrock answers, invoked with the configured model id.
    fake.behave(F0, { kind: 'status', status: 503 });
    const third = await ask('Where are you located?');
    expect(third.reply).toBe('Reply to: Where are you located?');
    expect(third.keys.at(-1)).toBe('bedrock');
    const invoke = fake.requests.findLast((q) => q.provider === 'bedrock');
    expect(invoke?.path).toBe(`/model/${encodeURIComponent(BEDROCK_MODEL)}/invoke`);

    // Four turns answered by the model: four AI calls, however many hops each took.
    const usage = await waitFor(
      async () => {
        const u = (await client.get(`/api/v1/ai/usage/${mobid}`)).body.usage;
        return u?.aiUsageCount >= 4 ? u : undefined;
      },
      10_000,
      'usage counted',
    );
    expect(usage.aiUsageCount).toBe(4);
    expect(usage.totalCreditsUsed).toBeGreaterThan(0);
  }, 90_000);
});
