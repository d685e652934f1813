import type { Message } from '@aws-sdk/client-sqs';

/**
 * The poller's per-key ordering (`pollQueue` with `lanes`): a lane holds the received messages of
 * one key (a session's commands on the host) and runs one batch of them at a time, in the order
 * they were received, while different lanes run side by side. Kept apart from the receive loop so
 * that how batches reach the handler can be chosen (`LaneDispatch`) without touching the order.
 */

/** Handles a batch; answers the messages that failed. */
export type LaneWork = (batch: Message[]) => Promise<Message[]>;

/** How the lanes' batches reach the handler. */
export interface LaneDispatch {
  /** Runs one lane's batch; answers the messages that failed (all of them when the handler throws). */
  run(key: string, batch: Message[]): Promise<Message[]>;
  /** Resolves once a batch would go to the handler at once: the poller waits for it before receiving. */
  free(): Promise<void>;
}

/** Each lane's batch goes to the handler on its own, as soon as it is ready. */
export const eachAlone = (work: LaneWork): LaneDispatch => ({
  run: (_key, batch) => work(batch).catch(() => batch),
  free: async () => {},
});

/**
 * A failed message is retried by its lane before the lane moves on, so a passing failure (a
 * transaction conflict, a throttled write) does not let later messages overtake it; past the
 * retries it is left to the queue's redelivery and dead-letter queue.
 */
const LANE_RETRIES = 3;
const LANE_RETRY_MS = 100;

interface Lane {
  pending: Message[];
  running: Promise<void> | undefined;
}

/**
 * Ordered lanes of messages with a bound on the messages held across all of them. A lane runs one
 * batch at a time: whatever waits in it when the previous batch is done, up to `batchSize`.
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  private held = 0;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly batchSize: number,
    private readonly dispatch: LaneDispatch,
  ) {}

  add(key: string, m: Message): void {
    this.held++;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { pending: [], running: undefined };
      this.lanes.set(key, lane);
    }
    lane.pending.push(m);
    if (!lane.running) lane.running = this.run(key, lane);
  }

  private async run(key: string, lane: Lane) {
    await Promise.resolve();
    while (lane.pending.length) {
      const batch = lane.pending.splice(0, this.batchSize);
      let failed = await this.dispatch.run(key, batch);
      for (let retry = 0; failed.length && retry < LANE_RETRIES; retry++) {
        await new Promise((r) => setTimeout(r, LANE_RETRY_MS * 2 ** retry));
        failed = await this.dispatch.run(key, failed);
      }
      this.held -= batch.length;
      for (const w of this.waiters.splice(0)) w();
    }
    lane.running = undefined;
    this.lanes.delete(key);
  }

  /** Resolves once the dispatch would hand a batch to the handler at once (`LaneDispatch.free`). */
  free(): Promise<void> {
    return this.dispatch.free();
  }

  /** Resolves once fewer than `max` messages are held. */
  async room(): Promise<void> {
    while (this.held >= this.max) await new Promise<void>((r) => this.waiters.push(r));
  }

  async idle(): Promise<void> {
    while (this.lanes.size) await Promise.allSettled([...this.lanes.values()].map((l) => l.running));
  }
}
