import { env } from '../config/env.ts';

export type PoolName = 'primary' | 'fallback';

export interface KeyPoolConfig {
  name: PoolName;
  kind: 'anthropic' | 'openai';
  /** Anthropic: the API root (`/v1/messages` is appended); OpenAI-compatible: the root `/chat/completions` is appended to. */
  baseUrl?: string;
  keys: string[];
  model: string;
}

export interface BedrockConfig {
  modelId: string;
  /** The Bedrock runtime endpoint; the region's public one when unset. */
  endpointUrl?: string;
  region: string;
}

/** How long a key sits out after each kind of failure. */
export interface CooldownConfig {
  /** 429 without a usable `retry-after`. */
  rateLimitMs: number;
  /** 529 overloaded. */
  overloadedMs: number;
  /** Credit or quota exhausted (a 400/402/403 saying so). */
  quotaMs: number;
  /** 401: a revoked or mistyped key. */
  authMs: number;
}

export interface ModelChainConfig {
  primary?: KeyPoolConfig;
  fallback?: KeyPoolConfig;
  bedrock?: BedrockConfig;
  /** Each HTTP attempt's limit (one key of one pool, or Bedrock). */
  timeoutMs: number;
  maxTokens: number;
  cooldown: CooldownConfig;
  /**
   * Where a tenant's scan of a pool starts. The default (a hash of the tenant) keeps a tenant on one
   * key while it works, so the provider's prompt cache for its prefix is hit; tenants spread over keys.
   */
  startIndex?: (tenantId: string, poolSize: number) => number;
}

export const MAX_KEYS_PER_POOL = 100;

export const DEFAULT_COOLDOWN: CooldownConfig = {
  rateLimitMs: 60_000,
  overloadedMs: 30_000,
  quotaMs: 3_600_000,
  authMs: 3_600_000,
};

/** A comma-separated key list (blanks dropped); more than 100 keys is a configuration error. */
export function parseKeys(name: string, raw: string | undefined): string[] {
  const keys = (raw ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length > MAX_KEYS_PER_POOL) {
    throw new Error(`${name} holds ${keys.length} keys; at most ${MAX_KEYS_PER_POOL} are allowed`);
  }
  return keys;
}

/** The chain as the environment describes it (docs/chatbot.md, "Model chain"). A pool without keys is skipped. */
export function modelChainConfigFromEnv(): ModelChainConfig {
  const e = env();
  const primaryKeys = parseKeys('ANTHROPIC_API_KEYS', e.ANTHROPIC_API_KEYS);
  const fallbackKeys = parseKeys('AI_FALLBACK_API_KEYS', e.AI_FALLBACK_API_KEYS);
  const fallbackModel =
    e.AI_FALLBACK_MODEL ?? (e.AI_FALLBACK_KIND === 'openai' ? 'gpt-4o-mini' : e.ANTHROPIC_MODEL);
  return {
    primary: primaryKeys.length
      ? {
          name: 'primary',
          kind: 'anthropic',
          baseUrl: e.ANTHROPIC_BASE_URL,
          keys: primaryKeys,
          model: e.ANTHROPIC_MODEL,
        }
      : undefined,
    fallback: fallbackKeys.length
      ? {
          name: 'fallback',
          kind: e.AI_FALLBACK_KIND,
          baseUrl: e.AI_FALLBACK_BASE_URL,
          keys: fallbackKeys,
          model: fallbackModel,
        }
      : undefined,
    bedrock: e.BEDROCK_MODEL_ID
      ? {
          modelId: e.BEDROCK_MODEL_ID,
          endpointUrl: e.BEDROCK_ENDPOINT_URL,
          region: e.AWS_REGION,
        }
      : undefined,
    timeoutMs: e.AI_TIMEOUT_MS,
    maxTokens: e.AI_MAX_TOKENS,
    cooldown: DEFAULT_COOLDOWN,
  };
}
