/**
 * Small helpers for the places that handle several sessions' work at once (the events and webhooks
 * consumers, the host's emit, the local poller's lanes).
 */

/** The indices of `items` by key, each key's in their order, keys in order of first appearance. */
export function indicesByKey<T>(items: readonly T[], keyOf: (item: T, index: number) => string): number[][] {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const key = keyOf(item, i);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  return [...groups.values()];
}

/**
 * Packs units in their order into bins, each unit whole, so that no bin exceeds any of `limits`
 * (one per measure `sizes` answers: items, bytes…). A unit larger than a limit gets a bin alone.
 */
export function packInOrder<T>(units: readonly T[], sizes: (unit: T) => number[], limits: number[]): T[][] {
  const bins: T[][] = [];
  let used = limits.map((l) => l + 1);
  for (const unit of units) {
    const size = sizes(unit);
    if (size.some((s, k) => used[k]! + s > limits[k]!)) {
      bins.push([]);
      used = limits.map(() => 0);
    }
    bins.at(-1)!.push(unit);
    used = used.map((u, k) => u + size[k]!);
  }
  return bins;
}

/**
 * Collects what is added during one turn of the event loop and hands it to `flush` in one call
 * (the work of several lanes that became ready together goes out as one request).
 */
export function sameTurn<T>(flush: (items: T[]) => void): (item: T) => void {
  let items: T[] = [];
  return (item) => {
    if (!items.length)
      setImmediate(() => {
        const all = items;
        items = [];
        flush(all);
      });
    items.push(item);
  };
}
