import { must } from '../must.ts';
/**
 * Write sharding of the tenant-wide index partitions (the tenant feed `#FEED`, the delivery log
 * `#DLV`): one partition of an index takes about 1,000 write units a second, and keys that grow with
 * time always land at the end of it, so DynamoDB cannot split it for heat. Each session writes to
 * one of `INDEX_SHARDS` partitions (a hash of its id: a session's entries stay in one, in order);
 * readers query every shard and merge by sort key. 16 shards take a tenant's 1,000 sessions at 10
 * messages a second each (10,000 index writes a second) at about 625 a second per partition.
 */
export const INDEX_SHARDS = 16;

/** The shard of a session (FNV-1a of its id): stable, and even over many sessions. */
export function shardOf(sessionId: string, shards = INDEX_SHARDS): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    h ^= sessionId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/** Lists each sorted by `keyOf` (ascending, or descending), merged into one in that order. */
export function mergeSorted<T>(lists: T[][], keyOf: (t: T) => string, descending: boolean): T[] {
  const all = lists.flat();
  const sign = descending ? -1 : 1;
  return all.sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return ka < kb ? -sign : ka > kb ? sign : 0;
  });
}

/**
 * Sources each yielding in `keyOf` order (descending), merged lazily: every next item is the
 * largest key among the sources' heads, so a reader that stops early reads no more than it needs
 * from each shard.
 */
export async function* mergeDescending<T>(
  sources: Array<AsyncGenerator<T>>,
  keyOf: (t: T) => string,
): AsyncGenerator<T> {
  const heads = await Promise.all(sources.map((s) => s.next()));
  try {
    for (;;) {
      let best = -1;
      for (const [i, h] of heads.entries()) {
        if (h.done) continue;
        if (best < 0 || keyOf(h.value) > keyOf((heads[best] as IteratorYieldResult<T>).value)) best = i;
      }
      if (best < 0) return;
      yield (heads[best] as IteratorYieldResult<T>).value;
      heads[best] = await must(sources[best], `source ${best}`).next();
    }
  } finally {
    await Promise.all(sources.map((s) => s.return(undefined)));
  }
}
