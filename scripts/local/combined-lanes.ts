import type { Message } from '@aws-sdk/client-sqs';
import { groupCommit } from '#shared/batching';
import type { LaneDispatch, LaneWork } from '#shared/queue/lanes';

/**
 * Local mode only: the launcher drives the events and webhooks Lambda handlers with `pollQueue`
 * (scripts/local/service.ts), and this dispatch makes that loop batch as the Lambda trigger does.
 * The batches of lanes that are ready at the same moment go to the handler in one call (each lane
 * still has one batch at a time, so its order holds), so that a handler that writes several lanes'
 * records together (`sqsBatchHandler`) can: many sessions with one or two messages each then cost
 * one transaction, not one each. `combine` is how many such calls may run at once; lanes that become
 * ready meanwhile wait for one to end and go together in the next (a group commit: the busier the
 * queue, the larger the batches, with no timer). No deployable imports it (.dependency-cruiser.cjs).
 *
 * Lanes for which `isolate` is true run their batches on their own, not joined to (nor counted
 * among) the combined calls, so that a lane known to be slow (a slow tenant's webhook jobs) cannot
 * hold up the lanes that share a call with it, nor the next receive.
 */
export function combinedLanes(
  combine: number,
  isolate: (key: string) => boolean = () => false,
): (work: LaneWork) => LaneDispatch {
  return (work) => {
    /** The calls to `work` under way, and who waits for one of them to end. */
    let calls = 0;
    const callWaiters: Array<() => void> = [];
    const together = groupCommit<{ batch: Message[]; done: (failed: Message[]) => void }>(
      Math.max(1, combine),
      async (waiting) => {
        const all = waiting.flatMap((w) => w.batch);
        calls++;
        const failed = await work(all).catch(() => all);
        calls--;
        for (const w of callWaiters.splice(0)) w();
        const ids = new Set(failed.map((m) => m.MessageId));
        for (const w of waiting) w.done(w.batch.filter((m) => ids.has(m.MessageId)));
      },
    );
    return {
      run(key, batch) {
        if (!combine || isolate(key)) return work(batch).catch(() => batch);
        return new Promise((done) => together({ batch, done }));
      },
      /**
       * Resolves once fewer than `combine` calls are under way, i.e. once a batch would go to the
       * handler at once. Until then, what a receive brings would only wait in the lanes; left in the
       * queue meanwhile, it comes in one receive instead of one each (docs/benchmarks.md).
       */
      async free() {
        while (combine && calls >= combine) await new Promise<void>((r) => callWaiters.push(r));
      },
    };
  };
}
