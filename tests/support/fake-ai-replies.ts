import { createHash } from 'node:crypto';
import type { FakeAiProvider } from './fake-ai.ts';
import { must } from './must.ts';

/**
 * What the fake model providers (fake-ai.ts) answer, in each provider's own shape: error bodies,
 * a tool call, a text reply, and the token usage with prompt caching imitated. Kept apart from
 * fake-ai.ts, which routes, authenticates, records and applies a test's behaviours.
 */

/** Request bodies of three providers, read loosely as the providers do. */
type Json = any;

/** The system prefixes seen so far: the first sight is a cache write, the next ones cache reads. */
export type PromptCache = Set<string>;

const tokens = (s: string) => Math.ceil(s.length / 4);
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

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
export function scriptedToolInput(messages: Json[] | undefined): unknown {
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

export function lastUserText(messages: Json[] | undefined): string {
  const m = [...(messages ?? [])].reverse().find((x) => x?.role === 'user');
  return m ? textOf(m.content) : '';
}

/** Anthropic-style usage with the cached prefix imitated. */
function anthropicUsage(body: Json, out: string, cache: PromptCache) {
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
    const h = hash(prefix);
    if (cache.has(h)) cacheRead = tokens(prefix);
    else {
      cache.add(h);
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

export function errorBody(provider: FakeAiProvider, status: number, message: string): Json {
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

/** The model a request named: in the path for Bedrock, in the body elsewhere. */
function modelOf(provider: FakeAiProvider, path: string, body: Json): string {
  return provider === 'bedrock'
    ? decodeURIComponent(must(path.split('/')[2], "path.split('/')[2]"))
    : body.model;
}

/** What a reply needs besides the provider: the request, and how many requests came before it. */
export interface ReplyTo {
  provider: FakeAiProvider;
  path: string;
  body: Json;
  /** Numbers the reply's ids. */
  seq: number;
}

/** A call of tool `toolName` with `input`. */
export function toolReply(r: ReplyTo, toolName: string, input: unknown, cache: PromptCache): Json {
  const args = JSON.stringify(input);
  if (r.provider === 'openai') {
    return {
      id: `chatcmpl-${r.seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: r.body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: toolName, arguments: args } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: tokens(JSON.stringify(r.body.messages)), completion_tokens: tokens(args) },
    };
  }
  return {
    id: `msg_fake_${r.seq}`,
    type: 'message',
    role: 'assistant',
    model: modelOf(r.provider, r.path, r.body),
    content: [{ type: 'tool_use', id: `toolu_${r.seq}`, name: toolName, input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: anthropicUsage(r.body, args, cache),
  };
}

/** A text reply `out`. */
export function textReply(r: ReplyTo, out: string, cache: PromptCache): Json {
  if (r.provider === 'openai') {
    const systemText = (r.body.messages ?? [])
      .filter((m: Json) => m.role === 'system')
      .map((m: Json) => textOf(m.content))
      .join('\n');
    const rest = (r.body.messages ?? [])
      .filter((m: Json) => m.role !== 'system')
      .map((m: Json) => textOf(m.content))
      .join('\n');
    const h = hash(systemText);
    const cached = cache.has(h) ? tokens(systemText) : 0;
    cache.add(h);
    const prompt = tokens(systemText) + tokens(rest);
    return {
      id: `chatcmpl-${r.seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: r.body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: tokens(out),
        total_tokens: prompt + tokens(out),
        prompt_tokens_details: { cached_tokens: cached },
      },
    };
  }
  return {
    id: `msg_fake_${r.seq}`,
    type: 'message',
    role: 'assistant',
    model: modelOf(r.provider, r.path, r.body),
    content: [{ type: 'text', text: out }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(r.body, out, cache),
  };
}
