import { LRUCache } from 'lru-cache';
import { RateLimitedError } from '../http/errors.ts';
import { throttleKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * Failed API-key attempts are counted in fixed windows in DynamoDB, per client address and per key
 * prefix, so every Lambda instance and every local process sees the same counts (an in-memory
 * counter would give an attacker a fresh allowance on each of the instances a flood scales to).
 * Once a counter of the current window reaches its limit, every attempt it covers, right or wrong,
 * answers 429 with `Retry-After` until the window ends.
 *
 * Cost: one strongly consistent BatchGetItem per attempt, and one UpdateItem per counter for a failed
 * one. A locked counter is also remembered in the process, so a flood costs no reads once locked.
 * Counting after the check means requests already in flight when the limit is reached still get
 * their answer: the bound is the limit plus the requests concurrently in flight.
 */
export const WINDOW_SECONDS = 60;
/** Failed attempts from one client address (IPv6: one /64) per window. */
export const ADDRESS_LIMIT = 10;
/** Failed attempts with one key prefix (`wsm_` + 8 characters, as key listings show) per window. */
export const PREFIX_LIMIT = 10;
/** The shown part of a key: its listing name, and the throttle's second counter. */
export const KEY_PREFIX_LENGTH = 12;

export interface Attempt {
  /** The client address; omitted where the runtime's address is a load balancer's. */
  address?: string;
  /** The presented key (only its first KEY_PREFIX_LENGTH characters are used). */
  key: string;
}

interface Counter {
  id: string;
  key: ReturnType<typeof throttleKey>;
  limit: number;
  windowEnd: number;
}

/** Lock expiry (epoch ms) of counters found at their limit, by counter id. */
const locked = new LRUCache<string, number>({ max: 10_000 });

export function windowOf(nowMs: number): { start: number; end: number } {
  const start = Math.floor(nowMs / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  return { start, end: start + WINDOW_SECONDS };
}

/**
 * The unit an address is counted in: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by
 * its /64, since one subscriber commonly gets a whole /64.
 */
export function addressBucket(address: string): string {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const [scoped = ''] = address.toLowerCase().split('%');
  const [head = '', tail] = scoped.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function counters(a: Attempt, nowMs: number): Counter[] {
  const { start, end } = windowOf(nowMs);
  const prefix = a.key.slice(0, KEY_PREFIX_LENGTH);
  const out: Counter[] = [
    {
      id: `prefix#${prefix}`,
      key: throttleKey('prefix', prefix, start),
      limit: PREFIX_LIMIT,
      windowEnd: end,
    },
  ];
  if (a.address) {
    const bucket = addressBucket(a.address);
    out.unshift({
      id: `addr#${bucket}`,
      key: throttleKey('addr', bucket, start),
      limit: ADDRESS_LIMIT,
      windowEnd: end,
    });
  }
  return out;
}

function refuse(c: Counter, nowMs: number): never {
  const retryAfter = Math.max(1, Math.ceil(c.windowEnd - nowMs / 1000));
  const what = c.id.startsWith('addr#') ? 'from this address' : 'for this key prefix';
  throw new RateLimitedError(
    `too many failed API key attempts ${what}; retry after ${retryAfter} s`,
    retryAfter,
  );
}

/** Throws RateLimitedError when the attempt's address or key prefix has used up its window. */
export async function guardAttempt(a: Attempt, nowMs = Date.now()): Promise<void> {
  const cs = counters(a, nowMs);
  for (const c of cs) if ((locked.get(c.id) ?? 0) > nowMs) refuse(c, nowMs);
  const items = await dataTable.getMany<{ count?: number }>(cs.map((c) => c.key));
  for (const [i, c] of cs.entries()) {
    if ((items[i]?.count ?? 0) >= c.limit) {
      locked.set(c.id, c.windowEnd * 1000);
      refuse(c, nowMs);
    }
  }
}

/** Counts a failed attempt against its address and key prefix. */
export async function recordFailure(a: Attempt, nowMs = Date.now()): Promise<void> {
  await Promise.all(
    counters(a, nowMs).map(async (c) => {
      const after = await dataTable.update<{ count: number }>(
        c.key,
        // Kept an hour past its window for anyone looking into an attack, then expired by TTL.
        { expiresAt: c.windowEnd + 3600 },
        { add: { count: 1 } },
      );
      if ((after?.count ?? 0) >= c.limit) locked.set(c.id, c.windowEnd * 1000);
    }),
  );
}
