import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
const tokens = (s: string) => Math.ceil(s.length / 4);
const bearer = (req: IncomingMessage) =>
  /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';

type Json = any;

function textOf(content: Json): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((b) => b?.type === 'text')
      .map((b) => b.text)
      .join('\n');
  }
  return '';
}

/** The scripted tool input: the JSON after the last `TOOL:` marker in the conversation's user turns. */
function scriptedToolInput(messages: Json[] | undefined): unknown {
  const users = (messages ?? []).filter((m: Json) => m?.role === 'user').map((m: Json) => textOf(m.content));
  const text = users.join('\n');
  const at = text.lastIndexOf('TOOL:');
  if (at < 0) return { found: false };
  const line = (text.slice(at + 5).split('\n')[0] ?? '').trim();
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

function lastUserText(messages: Json[] | undefined): string {
  const m = [...(messages ?? [])].reverse().find((x) => x?.role === 'user');
  return m ? textOf(m.content) : '';
}

export async function startFakeAi(
  opts: { answer?: (lastUser: string, req: FakeAiRequest) => string } = {},
): Promise<FakeAi> {
  const behaviours = new Map<string, FakeAiBehaviour>();
  const requests: FakeAiRequest[] = [];
  const seenPrefixes = new Set<string>();
  const defaultAnswer = (u: string) => `Reply to: ${u}`;
  let answer = opts.answer ?? defaultAnswer;

  /** Anthropic-style usage with the cached prefix imitated. */
  function anthropicUsage(body: Json, out: string) {
    const system: Json[] = Array.isArray(body.system)
      ? body.system
      : body.system
        ? [{ type: 'text', text: body.system }]
        : [];
    const lastCached = system.map((b) => Boolean(b?.cache_control)).lastIndexOf(true);
    const prefix = system
      .slice(0, lastCached + 1)
      .map((b) => b.text)
      .join('\n');
    const rest = system
      .slice(lastCached + 1)
      .map((b) => b.text)
      .join('\n');
    const msgs = (body.messages ?? []).map((m: Json) => textOf(m.content)).join('\n');
    let cacheRead = 0;
    let cacheWrite = 0;
    if (prefix) {
      const h = createHash('sha256').update(prefix).digest('hex');
      if (seenPrefixes.has(h)) cacheRead = tokens(prefix);
      else {
        seenPrefixes.add(h);
        cacheWrite = tokens(prefix);
      }
    }
    return {
      input_tokens: tokens(rest) + tokens(msgs),
      output_tokens: tokens(out),
      cache_read_input_tokens: cacheRead,
      cache_creation_input_tokens: cacheWrite,
    };
  }

  function send(res: ServerResponse, status: number, json: Json, headers: Record<string, string> = {}) {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  }

  function errorBody(provider: FakeAiProvider, status: number, message: string): Json {
    if (provider === 'openai') {
      return {
        error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null },
      };
    }
    if (provider === 'bedrock') return { message };
    const type =
      status === 429
        ? 'rate_limit_error'
        : status === 529
          ? 'overloaded_error'
          : status === 401
            ? 'authentication_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
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
    if (toolName) {
      const input = (b.kind === 'answer' ? b.toolInput : undefined) ?? scriptedToolInput(body.messages);
      const args = JSON.stringify(input);
      if (provider === 'openai') {
        return send(res, 200, {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'call_1', type: 'function', function: { name: toolName, arguments: args } },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: { prompt_tokens: tokens(JSON.stringify(body.messages)), completion_tokens: tokens(args) },
        });
      }
      return send(res, 200, {
        id: `msg_fake_${requests.length}`,
        type: 'message',
        role: 'assistant',
        model:
          provider === 'bedrock'
            ? decodeURIComponent(must(path.split('/')[2], "path.split('/')[2]"))
            : body.model,
        content: [{ type: 'tool_use', id: `toolu_${requests.length}`, name: toolName, input }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: anthropicUsage(body, args),
      });
    }
    const out = b.text ?? answer(lastUserText(body.messages), record);
    if (provider === 'openai') {
      const systemText = (body.messages ?? [])
        .filter((m: Json) => m.role === 'system')
        .map((m: Json) => textOf(m.content))
        .join('\n');
      const rest = (body.messages ?? [])
        .filter((m: Json) => m.role !== 'system')
        .map((m: Json) => textOf(m.content))
        .join('\n');
      const h = createHash('sha256').update(systemText).digest('hex');
      const cached = seenPrefixes.has(h) ? tokens(systemText) : 0;
      seenPrefixes.add(h);
      const prompt = tokens(systemText) + tokens(rest);
      return send(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: tokens(out),
          total_tokens: prompt + tokens(out),
          prompt_tokens_details: { cached_tokens: cached },
        },
      });
    }
    const model =
      provider === 'bedrock'
        ? decodeURIComponent(must(path.split('/')[2], "path.split('/')[2]"))
        : body.model;
    return send(res, 200, {
      id: `msg_fake_${requests.length}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: out }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: anthropicUsage(body, out),
    });
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
