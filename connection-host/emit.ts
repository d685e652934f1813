import { names } from '#shared/aws/names';
import { packInOrder, withinWindow } from '#shared/batching';
import type { HostEvent } from '#shared/events/types';
import { sessionLane } from '#shared/queue/lane-keys';
import { BATCH_MAX_BYTES, BATCH_MAX_ENTRIES, jsonSize, sendJsonBatch } from '#shared/queue/send';

interface Pending {
  event: HostEvent;
  size: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Per session: the events not yet on the queue, and whether a send is under way. */
const lanes = new Map<string, { pending: Pending[]; sending: boolean }>();

/**
 * Every network event leaves the host through the events queue; consumers store and fan out.
 * A session's events reach the queue in the order they were emitted: one send per session at a
 * time, and what piles up meanwhile goes in the next SendMessageBatch (up to ten events), so a
 * burst costs one SQS request per ten events instead of one each. The batches of sessions ready
 * within EMIT_WINDOW_MS share requests (many sessions with one event each: one request, not one each).
 * Resolves once the event is queued.
 */
export function emitEvent(event: HostEvent): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const key = sessionLane(event);
    let lane = lanes.get(key);
    if (!lane) {
      lane = { pending: [], sending: false };
      lanes.set(key, lane);
    }
    lane.pending.push({ event, size: jsonSize(event), resolve, reject });
    if (!lane.sending) void drain(key, lane);
  });
}

async function drain(key: string, lane: { pending: Pending[]; sending: boolean }): Promise<void> {
  lane.sending = true;
  try {
    while (lane.pending.length) {
      const batch: Pending[] = [];
      let bytes = 0;
      while (batch.length < BATCH_MAX_ENTRIES) {
        const next = lane.pending[0];
        if (!next || (batch.length && bytes + next.size > BATCH_MAX_BYTES)) break;
        lane.pending.shift();
        batch.push(next);
        bytes += next.size;
      }
      await sendWithOthers(batch);
    }
  } finally {
    lane.sending = false;
    lanes.delete(key);
  }
}

interface Ready {
  batch: Pending[];
  sent: () => void;
}

/** Batches of sessions ready within EMIT_WINDOW_MS: sent together, in as few requests as they fit. */
const sendWithOthers = (batch: Pending[]) => new Promise<void>((sent) => readyToSend({ batch, sent }));

/** Packs the batches into SendMessageBatch requests, never splitting one session's batch. */
const sendPacked = (waiting: Ready[]) => {
  const requests = packInOrder(waiting, (w) => [w.batch.length, w.batch.reduce((n, p) => n + p.size, 0)], [
    BATCH_MAX_ENTRIES,
    BATCH_MAX_BYTES,
  ]);
  for (const request of requests) void sendRequest(request);
};

/**
 * How long the first of the batches waits for others before they are sent. A steady stream of
 * inbound messages over many sessions arrives one by one: waiting this long sends about half as many
 * requests at 150 messages a second (fewer receives and deletes follow), for at most this much
 * latency (docs/benchmarks.md, "tenth pass"). Ten events go at once.
 */
export const EMIT_WINDOW_MS = 10;

const readyToSend = withinWindow<Ready>(
  EMIT_WINDOW_MS,
  sendPacked,
  (w) => w.reduce((n, x) => n + x.batch.length, 0) >= BATCH_MAX_ENTRIES,
);

async function sendRequest(request: Ready[]): Promise<void> {
  const entries = request.flatMap((w) => w.batch);
  try {
    const errors = await sendJsonBatch(
      names.eventsQueue(),
      entries.map((p) => p.event),
    );
    entries.forEach((p, i) => {
      const err = errors[i];
      if (err) p.reject(err);
      else p.resolve();
    });
  } catch (err) {
    for (const p of entries) p.reject(err as Error);
  }
  for (const w of request) w.sent();
}
