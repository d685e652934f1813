import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, lastUserText, scriptedToolInput, textReply, toolReply } from './fake-ai-replies.ts';
import { must } from './must.ts';

/**
 * A fake of the model providers over real HTTP, for tests:
 * - Anthropic `POST /v1/messages` (key in `x-api-key` or as a bearer token, as the SDK sends it);
 * - OpenAI-compatible `POST /v1/chat/completions` (key as `Authorization: Bearer …`);
 * - the Bedrock runtime `POST /model/{modelId}/invoke` (any SigV4 signature is accepted; unsigned is 403).
 *
 * Each key (and `bedrock`) can be told how to behave; every request is recorded (headers without
 * credentials, the parsed body). Prompt caching is imitated: the system prefix up to the last block
 * with `cache_control` is a cache write the first time it is seen and a cache read afterwards.
 * A request offering tools is answered with a call of its first (or forced) tool: the behaviour's
 * `toolInput`, else the JSON after the last `TOOL:` in the user messages (so a test scripts the
 * answer per conversation), else `{"found":false}`.
 */
export type FakeAiBehaviour =
  | { kind: 'answer'; delayMs?: number; text?: string; toolInput?: unknown }
  | { kind: 'status'; status: number; retryAfter?: string; message?: string; delayMs?: number };

export type FakeAiProvider = 'anthropic' | 'openai' | 'bedrock';

export interface FakeAiRequest {
  provider: FakeAiProvider;
  path: string;
  /** The credential the request used (test keys only), or `bedrock`. */
  key: string;
  /** Request headers without `x-api-key`, `authorization` and AWS session tokens. */
  headers: Record<string, string>;
  body: any;
  at: number;
}

export interface FakeAi {
  /** Root URL: the Anthropic base URL and the Bedrock endpoint URL. */
  url: string;
  /** The OpenAI-compatible base URL (`{url}/v1`). */
  openAiBaseUrl: string;
  requests: FakeAiRequest[];
  /** How a key (or `bedrock`) behaves from now on; unset keys answer. */
  behave(key: string, b: FakeAiBehaviour): void;
  /** The answer text for normal replies, from the last user message. */
  setAnswer(fn: (lastUser: string, req: FakeAiRequest) => string): void;
  reset(): void;
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'x-amz-security-token']);
const bearer = (req: IncomingMessage) =>
  /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';

type Json = any;

export async function startFakeAi(
  opts: { answer?: (lastUser: string, req: FakeAiRequest) => string } = {},
): Promise<FakeAi> {
  const behaviours = new Map<string, FakeAiBehaviour>();
  const requests: FakeAiRequest[] = [];
  const seenPrefixes = new Set<string>();
  const defaultAnswer = (u: string) => `Reply to: ${u}`;
  let answer = opts.answer ?? defaultAnswer;

  function send(res: ServerResponse, status: number, json: Json, headers: Record<string, string> = {}) {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = must((req.url ?? '/').split('?')[0], "(req.url ?? '/').split('?')[0]");
    let provider: FakeAiProvider | undefined;
    let key = '';
    if (req.method === 'POST' && path === '/v1/messages') {
      provider = 'anthropic';
      // The API takes `x-api-key`; the SDK (1.x) sends the key as a bearer token.
      key = String(req.headers['x-api-key'] ?? '') || bearer(req);
    } else if (req.method === 'POST' && path === '/v1/chat/completions') {
      provider = 'openai';
      key = bearer(req);
    } else if (req.method === 'POST' && /^\/model\/[^/]+\/invoke$/.test(path)) {
      provider = 'bedrock';
      if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 Credential=')) {
        return send(res, 403, { message: 'Missing Authentication Token' });
      }
      key = 'bedrock';
    }
    if (!provider) return send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    if (!key) return send(res, 401, errorBody(provider, 401, 'missing API key'));

    let body: Json;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return send(res, 400, errorBody(provider, 400, 'malformed JSON'));
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!SECRET_HEADERS.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const record: FakeAiRequest = { provider, path, key, headers, body, at: Date.now() };
    requests.push(record);

    const b = behaviours.get(key) ?? { kind: 'answer' };
    if (b.delayMs) {
      await new Promise((r) => setTimeout(r, b.delayMs));
      // Not `req.destroyed`: a request whose body has been read is destroyed already (autoDestroy).
      if (res.destroyed) return;
    }
    if (b.kind === 'status') {
      return send(
        res,
        b.status,
        errorBody(provider, b.status, b.message ?? `scripted ${b.status}`),
        b.retryAfter ? { 'retry-after': b.retryAfter } : {},
      );
    }
    const toolName: string | undefined =
      body.tool_choice?.name ??
      body.tool_choice?.function?.name ??
      body.tools?.[0]?.name ??
      body.tools?.[0]?.function?.name;
    const replyTo = { provider, path, body, seq: requests.length };
    if (toolName) {
      const input = (b.kind === 'answer' ? b.toolInput : undefined) ?? scriptedToolInput(body.messages);
      return send(res, 200, toolReply(replyTo, toolName, input, seenPrefixes));
    }
    const out = b.text ?? answer(lastUserText(body.messages), record);
    return send(res, 200, textReply(replyTo, out, seenPrefixes));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    openAiBaseUrl: `${url}/v1`,
    requests,
    behave: (key, b) => void behaviours.set(key, b),
    setAnswer: (fn) => {
      answer = fn;
    },
    reset: () => {
      behaviours.clear();
      requests.length = 0;
      seenPrefixes.clear();
      answer = opts.answer ?? defaultAnswer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
