import { LRUCache } from 'lru-cache';

/**
 * Values read from the store, remembered per key for `ttlMs` in this process (at most `max` keys, the
 * least recently used going first): the one shape of the per-tenant settings caches (webhook
 * configurations, the chatbot gate, credential state). Calls for a key while its read runs share that
 * read; a read that fails is not kept, so the next call asks again.
 */
export class Remembered<V> {
  private readonly cache: LRUCache<string, Promise<V>>;

  /** `now`: the clock the time-to-live is measured on (tests hand in their own). */
  constructor(opts: { ttlMs: number; max?: number; now?: () => number }) {
    const now = opts.now;
    this.cache = new LRUCache({
      max: opts.max ?? 10_000,
      ttl: opts.ttlMs,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** The value remembered for `key`, else what `read` answers (then remembered). */
  get(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const value = read();
    this.cache.set(key, value);
    value.catch(() => {
      if (this.cache.peek(key) === value) this.cache.delete(key);
    });
    return value;
  }

  /** After a change made here: the next call for `key` reads again. */
  forget(key: string): void {
    this.cache.delete(key);
  }

  /** Forgets every key that `matches`. */
  forgetWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.cache.keys()]) if (matches(key)) this.cache.delete(key);
  }
}
