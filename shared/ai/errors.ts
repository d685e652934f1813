import { ServiceError } from '../http/errors.ts';
import type { CooldownConfig } from './config.ts';
import type { AiTier } from './types.ts';

/** A provider call that failed, in provider-neutral terms. Its message never holds a key. */
export class ProviderCallError extends Error {
  constructor(
    readonly failure:
      | { kind: 'http'; status: number; retryAfter?: string | null; detail: string }
      | { kind: 'timeout' }
      | { kind: 'network'; detail: string }
      | { kind: 'unsupported'; detail: string }
      | { kind: 'empty' },
  ) {
    super(describe(failure));
    this.name = 'ProviderCallError';
  }
}

function describe(f: ProviderCallError['failure']): string {
  switch (f.kind) {
    case 'http':
      return `HTTP ${f.status}${f.detail ? `: ${f.detail.slice(0, 200)}` : ''}`;
    case 'timeout':
      return 'timed out';
    case 'network':
      return `network error: ${f.detail.slice(0, 200)}`;
    case 'unsupported':
      return `unsupported request: ${f.detail}`;
    case 'empty':
      return 'empty reply';
  }
}

/**
 * What the chain does after a failed call: `rotate` sets this key aside for `cooldownMs` and tries
 * the pool's next key; `abandon` leaves the pool for the next hop (the provider itself is failing,
 * or the request is one no key of it would accept), with no cool-down.
 */
export type FailureAction =
  | { action: 'rotate'; cooldownMs: number; reason: 'rate limited' | 'overloaded' | 'quota' | 'unauthorized' }
  | { action: 'abandon'; reason: string };

const QUOTA_WORDING = /credit|quota|billing|balance|insufficient|exceeded your|spend limit|usage limit/i;

/** `retry-after` as seconds or an HTTP date, in ms from `now`; undefined when absent or unusable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The rotation table (docs/chatbot.md, "Key rotation and cool-down"). */
export function classifyFailure(
  err: ProviderCallError,
  cooldown: CooldownConfig,
  now = Date.now(),
): FailureAction {
  const f = err.failure;
  if (f.kind !== 'http') return { action: 'abandon', reason: err.message };
  const quota = QUOTA_WORDING.test(f.detail);
  if (f.status === 429) {
    if (quota && /insufficient_quota|billing|credit/i.test(f.detail)) {
      return { action: 'rotate', cooldownMs: cooldown.quotaMs, reason: 'quota' };
    }
    const after = retryAfterMs(f.retryAfter, now);
    return { action: 'rotate', cooldownMs: after ?? cooldown.rateLimitMs, reason: 'rate limited' };
  }
  if (f.status === 529) return { action: 'rotate', cooldownMs: cooldown.overloadedMs, reason: 'overloaded' };
  if (f.status === 401) return { action: 'rotate', cooldownMs: cooldown.authMs, reason: 'unauthorized' };
  if (f.status === 402 || ((f.status === 400 || f.status === 403) && quota)) {
    return { action: 'rotate', cooldownMs: cooldown.quotaMs, reason: 'quota' };
  }
  return { action: 'abandon', reason: err.message };
}

export interface HopAttempt {
  tier: AiTier;
  keyIndex?: number;
  outcome: string;
}

/**
 * Every hop of the chain failed or was unavailable. The message lists each hop's outcome by tier
 * and key index, never a key.
 */
export class ModelUnavailableError extends ServiceError {
  constructor(
    readonly attempts: HopAttempt[],
    /** Set when no model was asked at all, e.g. nothing the customer wrote is left to answer. */
    reason?: string,
  ) {
    super(
      'UPSTREAM_UNAVAILABLE',
      reason ? `no model asked (${reason})` : `no model answered (${summarise(attempts)})`,
    );
  }
}

function summarise(attempts: HopAttempt[]): string {
  if (!attempts.length) return 'no provider configured';
  const shown = attempts
    .slice(0, 12)
    .map((a) => `${a.tier}${a.keyIndex === undefined ? '' : `[${a.keyIndex}]`}: ${a.outcome}`);
  if (attempts.length > shown.length) shown.push(`and ${attempts.length - shown.length} more`);
  return shown.join('; ');
}

/** A provider's error text with the key (or anything shaped like one) taken out. */
export function scrub(detail: string, key?: string): string {
  let out = key ? detail.split(key).join('[key]') : detail;
  out = out.replace(/\b(sk|key|AKIA)[-_A-Za-z0-9*]{6,}/g, '[key]');
  return out.slice(0, 300);
}
