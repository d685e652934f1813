import { createHash } from 'node:crypto';
import { logger } from '../log/logger.ts';
import { type KeyPoolConfig, type ModelChainConfig, modelChainConfigFromEnv } from './config.ts';
import { classifyFailure, type HopAttempt, ModelUnavailableError, ProviderCallError } from './errors.ts';
import { type Cooldowns, coolDown, isCooling, readCooldowns } from './key-state.ts';
import { normaliseTurns, systemParts } from './prompt.ts';
import { anthropicBody, anthropicClient, type CallResult, callMessages } from './providers/anthropic.ts';
import { callBedrock } from './providers/bedrock.ts';
import { callChatCompletions, openAiBody } from './providers/openai.ts';
import type { AiTier, ModelReply, ModelRequest } from './types.ts';

export type { ModelChainConfig } from './config.ts';
export { modelChainConfigFromEnv } from './config.ts';
export { ModelUnavailableError } from './errors.ts';
export type {
  AiContentBlock,
  AiTier,
  AiTurn,
  ModelReply,
  ModelRequest,
  ModelTool,
  TokenUsage,
} from './types.ts';

import { must } from '../must.ts';

export interface ModelChain {
  /** The reply of the first hop that answers; `ModelUnavailableError` when none does. */
  reply(req: ModelRequest): Promise<ModelReply>;
}

const log = logger.child({ mod: 'model-chain' });

/** The tenant's own starting key: stable, so the provider's prompt cache for its prefix keeps hitting. */
function tenantStart(tenantId: string, size: number): number {
  return createHash('sha256').update(tenantId).digest().readUInt32BE(0) % size;
}

/**
 * The model chain (docs/chatbot.md, "Model chain"): the primary pool's keys in turn from the tenant's
 * start index, skipping keys cooling down; then the fallback pool the same way; then Bedrock. A key
 * that answers 429/529/401 or a quota error cools down (recorded in DynamoDB, so every Lambda skips
 * it); any other failure (5xx, timeout, network) leaves that pool for the next hop.
 */
export function createModelChain(cfg: ModelChainConfig = modelChainConfigFromEnv()): ModelChain {
  const startOf = cfg.startIndex ?? tenantStart;

  async function reply(req: ModelRequest): Promise<ModelReply> {
    const started = Date.now();
    const system = systemParts(req.system);
    const turns = normaliseTurns(req.turns);
    const maxTokens = req.maxTokens ?? cfg.maxTokens;
    const toolOptions = { tools: req.tools, toolChoice: req.toolChoice };
    const attempts: HopAttempt[] = [];
    const writes: Promise<void>[] = [];
    const done = (tier: AiTier, keyIndex: number, r: CallResult): ModelReply => ({
      ...r,
      tier,
      keyIndex,
      latencyMs: Date.now() - started,
    });

    try {
      const cooldowns: Cooldowns = cfg.primary || cfg.fallback ? await readCooldowns() : new Map();
      for (const pool of [cfg.primary, cfg.fallback]) {
        if (!pool) continue;
        const tier: AiTier = pool.name;
        const call = (key: string) =>
          pool.kind === 'openai'
            ? callChatCompletions(
                pool.baseUrl ?? 'https://api.openai.com/v1',
                key,
                openAiBody(pool.model, system, turns, maxTokens, toolOptions),
                cfg.timeoutMs,
              )
            : callMessages(
                anthropicClient(pool.baseUrl, key, cfg.timeoutMs),
                anthropicBody(pool.model, system, turns, maxTokens, toolOptions),
                key,
              );
        const r = await tryPool(pool, call, req.tenantId, cooldowns, attempts, writes);
        if (r) return done(tier, r.keyIndex, r.result);
      }
      if (cfg.bedrock) {
        try {
          const r = await callBedrock(
            cfg.bedrock,
            anthropicBody(cfg.bedrock.modelId, system, turns, maxTokens, toolOptions),
            cfg.timeoutMs,
          );
          return done('bedrock', 0, r);
        } catch (err) {
          const outcome = err instanceof ProviderCallError ? err.message : 'failed';
          attempts.push({ tier: 'bedrock', outcome });
          log.warn({ tier: 'bedrock', outcome }, 'model chain: hop failed');
        }
      }
      throw new ModelUnavailableError(attempts);
    } finally {
      // The cool-downs are written before the reply returns, so the next invocation already skips them.
      for (const r of await Promise.allSettled(writes)) {
        if (r.status === 'rejected') log.warn({ err: r.reason }, 'model chain: cool-down not recorded');
      }
    }
  }

  async function tryPool(
    pool: KeyPoolConfig,
    call: (key: string) => Promise<CallResult>,
    tenantId: string,
    cooldowns: Cooldowns,
    attempts: HopAttempt[],
    writes: Promise<void>[],
  ): Promise<{ keyIndex: number; result: CallResult } | undefined> {
    const n = pool.keys.length;
    const start = ((startOf(tenantId, n) % n) + n) % n;
    let cooling = 0;
    for (let i = 0; i < n; i++) {
      const keyIndex = (start + i) % n;
      const key = must(pool.keys[keyIndex], `key ${keyIndex} of pool ${pool.name}`);
      if (isCooling(cooldowns, pool.name, key)) {
        cooling++;
        continue;
      }
      try {
        return { keyIndex, result: await call(key) };
      } catch (err) {
        if (!(err instanceof ProviderCallError)) throw err;
        const next = classifyFailure(err, cfg.cooldown);
        attempts.push({ tier: pool.name, keyIndex, outcome: err.message });
        log.warn({ tier: pool.name, keyIndex, outcome: err.message, next }, 'model chain: key failed');
        if (next.action === 'abandon') break;
        writes.push(coolDown(pool.name, keyIndex, key, Date.now() + next.cooldownMs, next.reason));
      }
    }
    if (cooling) attempts.push({ tier: pool.name, outcome: `${cooling} of ${n} keys cooling down` });
    return undefined;
  }

  return { reply };
}
