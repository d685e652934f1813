import { ProviderCallError, scrub } from '../errors.ts';
import type { NormalisedTurn, SystemPart } from '../prompt.ts';
import type { AiContentBlock } from '../types.ts';
import type { CallResult, ToolOptions } from './anthropic.ts';

type OpenAiPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

interface ChatCompletion {
  model?: string;
  choices?: Array<{
    message?: {
      content?: string | null;
      tool_calls?: Array<{ type?: string; function?: { name?: string; arguments?: string } }>;
    };
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
  };
}

/**
 * An OpenAI-compatible `/chat/completions` body. Such providers cache a repeated prompt prefix on
 * their own, so the system prompt is one message in the same stable order (persona, brain, then the
 * turn's instructions).
 */
export function openAiBody(
  model: string,
  system: SystemPart[],
  turns: NormalisedTurn[],
  maxTokens: number,
  { tools, toolChoice }: ToolOptions = {},
) {
  return {
    ...(tools?.length
      ? {
          tools: tools.map((t) => ({
            type: 'function' as const,
            function: { name: t.name, description: t.description, parameters: t.inputSchema },
          })),
          ...(toolChoice
            ? { tool_choice: { type: 'function' as const, function: { name: toolChoice } } }
            : {}),
        }
      : {}),
    model,
    max_tokens: maxTokens,
    messages: [
      { role: 'system' as const, content: system.map((p) => p.text).join('\n\n') },
      ...turns.map((t) => ({ role: t.role, content: openAiContent(t.content) })),
    ],
  };
}

function openAiContent(blocks: AiContentBlock[]): string | OpenAiPart[] {
  if (blocks.every((b) => b.type === 'text'))
    return blocks.map((b) => (b as { text: string }).text).join('\n');
  return blocks.map((b): OpenAiPart => {
    if (b.type === 'text') return { type: 'text', text: b.text };
    if (b.type === 'image')
      return { type: 'image_url', image_url: { url: `data:${b.mediaType};base64,${b.data}` } };
    throw new ProviderCallError({
      kind: 'unsupported',
      detail: 'PDF documents on an OpenAI-compatible endpoint',
    });
  });
}

/** `POST {baseUrl}/chat/completions` with a bearer key, within `timeoutMs`. */
export async function callChatCompletions(
  baseUrl: string,
  apiKey: string,
  body: ReturnType<typeof openAiBody>,
  timeoutMs: number,
): Promise<CallResult> {
  let res: Response;
  let json: ChatCompletion;
  try {
    res = await fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      const detail = await res.text().catch(() => '');
      throw new ProviderCallError({
        kind: 'http',
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        detail: scrub(detail, apiKey),
      });
    }
    json = (await res.json()) as ChatCompletion;
  } catch (err) {
    if (err instanceof ProviderCallError) throw err;
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderCallError({ kind: 'timeout' });
    throw new ProviderCallError({
      kind: 'network',
      detail: scrub(String((err as Error)?.message ?? err), apiKey),
    });
  }
  const message = json.choices?.[0]?.message;
  const text = (message?.content ?? '').trim();
  const call = message?.tool_calls?.find((c) => c.function?.name);
  let toolInput: unknown;
  if (call) {
    // Arguments that are not JSON stay a string: the caller's schema check refuses them.
    try {
      toolInput = JSON.parse(call.function?.arguments || '{}');
    } catch {
      toolInput = call.function?.arguments;
    }
  }
  if (!text && !call) throw new ProviderCallError({ kind: 'empty' });
  const cached = json.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    text,
    ...(call ? { toolInput, toolName: call.function?.name } : {}),
    model: json.model ?? body.model,
    usage: {
      input: Math.max(0, (json.usage?.prompt_tokens ?? 0) - cached),
      output: json.usage?.completion_tokens ?? 0,
      cacheRead: cached,
      cacheWrite: 0,
    },
  };
}
