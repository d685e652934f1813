import type { CacheStore } from '@whiskeysockets/baileys';
import { byteCache, SESSION_CACHE_BYTES } from '../../session-memory.ts';

/** How long Baileys keeps each entry by default (DEFAULT_CACHE_TTLS in rc14); we keep its ages. */
const TTL_MS = { userDevices: 5 * 60_000, msgRetry: 60 * 60_000, callOffer: 5 * 60_000 } as const;

/** Baileys' `CacheStore` on a byte-bounded cache (with `mget`/`mset` for the device lists). */
export function byteCacheStore(maxBytes: number, ttlMs?: number) {
  const c = byteCache<string, { v: unknown }>(maxBytes, ttlMs ? { ttlMs } : {});
  return {
    get: <T>(key: string) => c.get(key)?.v as T | undefined,
    set: <T>(key: string, value: T) => {
      c.set(key, { v: value });
    },
    del: (key: string) => c.delete(key),
    flushAll: () => c.clear(),
    mget: async <T>(keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, c.get(k)?.v as T | undefined])) as Record<string, T | undefined>,
    mset: <T>(entries: Array<{ key: string; value: T }>) => {
      for (const e of entries) c.set(e.key, { v: e.value });
    },
    mdel: (keys: string[]) => {
      for (const k of keys) c.delete(k);
    },
    /** Bytes held now (as counted). */
    get bytes() {
      return c.calculatedSize;
    },
  } satisfies CacheStore & Record<string, unknown>;
}

/**
 * Baileys' caches of one socket, each bounded by bytes (with Baileys' own ages), for makeWASocket.
 * Its `placeholderResendCache` stays Baileys' own: an entry evicted in the 2 s before Baileys asks the
 * phone to resend a message it could not decrypt reads as "arrived meanwhile", and the request would
 * never go out. That cache empties itself (each entry leaves within 8 s), so an idle session holds none.
 */
export function baileysCaches() {
  return {
    userDevicesCache: byteCacheStore(SESSION_CACHE_BYTES.userDevices, TTL_MS.userDevices),
    msgRetryCounterCache: byteCacheStore(SESSION_CACHE_BYTES.retryCounters, TTL_MS.msgRetry),
    callOfferCache: byteCacheStore(SESSION_CACHE_BYTES.callOffers, TTL_MS.callOffer),
  };
}
