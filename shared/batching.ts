import { must } from './must.ts';

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
  let bin: T[] | undefined;
  let used = limits.map(() => 0);
  for (const unit of units) {
    const size = sizes(unit);
    const measure = (k: number) => must(size[k], `size ${k} of a unit (one per limit)`);
    if (!bin || used.some((u, k) => u + measure(k) > must(limits[k], `limit ${k}`))) {
      bin = [];
      bins.push(bin);
      used = limits.map(() => 0);
    }
    bin.push(unit);
    used = used.map((u, k) => u + measure(k));
  }
  return bins;
}

/**
 * Collects what is added within `ms` of the first item and hands it to `flush` in one call, at once
 * when `full` says the lot is as large as one call takes (a linger: a few milliseconds more for the
 * first item, fewer and fuller requests when items arrive one by one, as a steady stream does).
 */
export function withinWindow<T>(
  ms: number,
  flush: (items: T[]) => void,
  full: (items: T[]) => boolean = () => false,
): (item: T) => void {
  let waiting: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const go = () => {
    clearTimeout(timer);
    timer = undefined;
    const all = waiting;
    waiting = [];
    if (all.length) flush(all);
  };
  return (item) => {
    waiting.push(item);
    if (full(waiting)) go();
    else timer ??= setTimeout(go, ms);
  };
}

/**
 * Collects what is added during one turn of the event loop and hands it to `flush` in one call,
 * with at most `limit` flushes running at once: what is added while that many run
 * waits and goes out together in the next one (a group commit). Under load the batches grow by
 * themselves instead of each turn's handful paying a request of its own; when idle, nothing waits.
 */
export function groupCommit<T>(
  limit: number,
  flush: (items: T[]) => void | Promise<void>,
): (item: T) => void {
  let waiting: T[] = [];
  let running = 0;
  let scheduled = false;
  const start = () => {
    scheduled = false;
    if (!waiting.length || running >= limit) return;
    const all = waiting;
    waiting = [];
    running++;
    void (async () => flush(all))()
      .catch(() => {})
      .finally(() => {
        running--;
        schedule();
      });
  };
  const schedule = () => {
    if (scheduled || !waiting.length || running >= limit) return;
    scheduled = true;
    setImmediate(start);
  };
  return (item) => {
    waiting.push(item);
    schedule();
  };
}
