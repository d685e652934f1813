import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { ProviderCallError, scrub } from '../errors.ts';
import type { NormalisedTurn, SystemPart } from '../prompt.ts';
import type { AiContentBlock, ModelTool, TokenUsage } from '../types.ts';

export interface CallResult {
  text: string;
  model: string;
  usage: TokenUsage;
  toolInput?: unknown;
  toolName?: string;
}

/** The tools offered in a request and the one the model must call (if any). */
export interface ToolOptions {
  tools?: ModelTool[];
  toolChoice?: string;
}

/** The Messages API body: cached system blocks carry `cache_control`, then the turns. */
export function anthropicBody(
  model: string,
  system: SystemPart[],
  turns: NormalisedTurn[],
  maxTokens: number,
  toolOptions: ToolOptions = {},
): MessageCreateParamsNonStreaming {
  const { tools, toolChoice } = toolOptions;
  return {
    ...(tools?.length
      ? {
          tools: tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: { ...t.inputSchema, type: 'object' as const },
          })),
          ...(toolChoice ? { tool_choice: { type: 'tool' as const, name: toolChoice } } : {}),
        }
      : {}),
    model,
    max_tokens: maxTokens,
    system: system.map(
      (p): TextBlockParam =>
        p.cached
          ? { type: 'text', text: p.text, cache_control: { type: 'ephemeral' } }
          : { type: 'text', text: p.text },
    ),
    messages: turns.map((t): MessageParam => ({ role: t.role, content: t.content.map(anthropicBlock) })),
  };
}

function anthropicBlock(b: AiContentBlock): ContentBlockParam {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: b.mediaType, data: b.data } };
    case 'document':
      return { type: 'document', source: { type: 'base64', media_type: b.mediaType, data: b.data } };
  }
}

// One SDK client per endpoint and key, kept for the process (connection reuse in a warm Lambda).
const clients = new Map<string, Anthropic>();

export function anthropicClient(baseUrl: string | undefined, apiKey: string, timeoutMs: number): Anthropic {
  const id = `${baseUrl ?? ''}\n${apiKey}\n${timeoutMs}`;
  let c = clients.get(id);
  if (!c) {
    // Retries are the chain's job (another key, another hop), never the SDK's.
    c = new Anthropic({
      apiKey,
      authToken: null,
      baseURL: baseUrl ?? null,
      maxRetries: 0,
      timeout: timeoutMs,
    });
    clients.set(id, c);
  }
  return c;
}

/** One Messages call on a client of the SDK family (Anthropic or Bedrock); failures as ProviderCallError. */
export async function callMessages(
  client: { messages: Pick<Anthropic['messages'], 'create'> },
  body: MessageCreateParamsNonStreaming,
  key?: string,
): Promise<CallResult> {
  let msg: Anthropic.Message;
  try {
    msg = await client.messages.create(body);
  } catch (err) {
    throw toProviderError(err, key);
  }
  const text = msg.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('')
    .trim();
  const tool = msg.content.find((b) => b.type === 'tool_use');
  if (!text && !tool) throw new ProviderCallError({ kind: 'empty' });
  const u = msg.usage;
  return {
    text,
    ...(tool ? { toolInput: tool.input, toolName: tool.name } : {}),
    model: msg.model || body.model,
    usage: {
      input: u?.input_tokens ?? 0,
      output: u?.output_tokens ?? 0,
      cacheRead: u?.cache_read_input_tokens ?? 0,
      cacheWrite: u?.cache_creation_input_tokens ?? 0,
    },
  };
}

function toProviderError(err: unknown, key?: string): ProviderCallError {
  if (err instanceof ProviderCallError) return err;
  // By name as well as class: the Bedrock client may load its own copy of the SDK's error classes.
  const e = err as {
    name?: string;
    message?: string;
    status?: unknown;
    headers?: Headers;
    apiMessage?: string | null;
  };
  if (err instanceof APIConnectionTimeoutError || e?.name === 'APIConnectionTimeoutError') {
    return new ProviderCallError({ kind: 'timeout' });
  }
  if ((err instanceof APIError || e?.headers) && typeof e.status === 'number') {
    return new ProviderCallError({
      kind: 'http',
      status: e.status,
      retryAfter: typeof e.headers?.get === 'function' ? e.headers.get('retry-after') : undefined,
      detail: scrub(e.apiMessage ?? e.message ?? '', key),
    });
  }
  const detail = scrub(String(e?.message ?? err), key);
  if (err instanceof APIConnectionError) return new ProviderCallError({ kind: 'network', detail });
  return new ProviderCallError({ kind: 'network', detail });
}
