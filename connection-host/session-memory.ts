import { LRUCache } from 'lru-cache';

/**
 * What each cache a Baileys session keeps may hold, in bytes (as `approxBytes` counts them): the
 * one owner of these bounds. Every cache is a least-recently-used cache that evicts by bytes, so a
 * session that has seen ten thousand groups or contacts holds no more than one that saw ten. What
 * is evicted is found again where it lives: the auth table (keys), the network (group metadata,
 * device lists), the data table (contacts, LID mappings).
 */
export const SESSION_CACHE_BYTES = {
  /** Signal keys read or written (drivers/baileys/auth-state.ts); pre-keys are not kept on write. */
  authKeys: 256 * 1024,
  /**
   * Group metadata (Baileys' `cachedGroupMetadata`; refetched from the network when evicted): about
   * 150 bytes a participant, so a full group (1,024) fits with room for others.
   */
  groups: 256 * 1024,
  /** Baileys' `userDevicesCache`: the device list of each user messaged (USync when evicted). */
  userDevices: 64 * 1024,
  /** Baileys' `msgRetryCounterCache`: retries asked for each message it could not decrypt. */
  retryCounters: 16 * 1024,
  /** Baileys' `callOfferCache`: calls ringing now. */
  callOffers: 16 * 1024,
  /** Phones of contacts seen on this link, added to a status story's audience before the store has them. */
  contacts: 32 * 1024,
  /** Ids this link sent lately (its own echoes are not the phone's messages; wire.ts). */
  sentIds: 32 * 1024,
  /** LID → phone mappings revealed to this session (the session runtime's LidCache). */
  lids: 64 * 1024,
} as const;

/** The sum of the above: what one session's caches may hold at most (736 KiB; docs/baileys-driver.md, "Memory per session"). */
export const SESSION_CACHE_BUDGET = Object.values(SESSION_CACHE_BYTES).reduce((a, b) => a + b, 0);

/**
 * About what `value` holds in the V8 heap, in bytes: strings by length, byte arrays by length plus
 * the object around them, objects and arrays by their slots and contents. An estimate that errs
 * high, never a count of entries; nesting deeper than 12 levels counts as a flat 64 bytes.
 */
export function approxBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 8;
  switch (typeof value) {
    case 'string':
      return 16 + value.length * (/[\u0100-\uffff]/.test(value) ? 2 : 1);
    case 'number':
    case 'boolean':
    case 'bigint':
      return 16;
    case 'object':
      break;
    default:
      return 32;
  }
  if (depth > 12) return 64;
  if (ArrayBuffer.isView(value)) return 96 + value.byteLength;
  if (value instanceof ArrayBuffer) return 64 + value.byteLength;
  if (Array.isArray(value)) {
    let n = 16 + 8 * value.length;
    for (const v of value) n += approxBytes(v, depth + 1);
    return n;
  }
  if (value instanceof Map) {
    let n = 32;
    for (const [k, v] of value) n += 24 + approxBytes(k, depth + 1) + approxBytes(v, depth + 1);
    return n;
  }
  if (value instanceof Set) {
    let n = 32;
    for (const v of value) n += 16 + approxBytes(v, depth + 1);
    return n;
  }
  let n = 24;
  for (const [k, v] of Object.entries(value)) n += 8 + k.length + approxBytes(v, depth + 1);
  return n;
}

/**
 * A least-recently-used cache bounded by bytes: `maxBytes` in all, entries sized by `approxBytes`
 * of key and value. An entry bigger than the whole budget is not kept (`set` leaves it out).
 */
export function byteCache<K extends {}, V extends {}>(
  maxBytes: number,
  opts: { ttlMs?: number; now?: () => number } = {},
) {
  return new LRUCache<K, V>({
    maxSize: maxBytes,
    sizeCalculation: (v, k) => Math.max(1, approxBytes(k) + approxBytes(v)),
    // Expired entries go when read or pushed out: no timer per entry.
    ...(opts.ttlMs ? { ttl: opts.ttlMs, ttlAutopurge: false } : {}),
    ...(opts.now ? { perf: { now: opts.now }, ttlResolution: 0 } : {}),
  });
}

/** Recently seen strings (ids, phones), the least recently added going first past `maxBytes`. */
export function recentSet(maxBytes: number) {
  const c = byteCache<string, true>(maxBytes);
  return {
    has: (s: string) => c.has(s),
    add(s: string) {
      c.set(s, true);
    },
    values: () => c.keys(),
    get size() {
      return c.size;
    },
    get bytes() {
      return c.calculatedSize;
    },
  };
}
