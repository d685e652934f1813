import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { sqsClient } from '../aws/clients.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { groupCommit, indicesByKey } from '../batching.ts';
import { runtimeEnv } from '../config/env.ts';
import { logger } from '../log/logger.ts';
import { flushMetrics } from '../metrics/flush.ts';
import { observeQueueAge } from '../metrics/metrics.ts';
import { SQS_BATCH_MAX } from './limits.ts';
import { changeVisibility } from './visibility.ts';

export type RecordHandler<T> = (body: T, meta: { messageId: string; receiveCount: number }) => Promise<void>;

export interface ProcessOptions<T = unknown> {
  /**
   * Run the batch's records side by side. Off by default: in order, a record can rely on the ones
   * before it (a LID mapping before the message from that LID).
   */
  concurrent?: boolean;
  /**
   * Records with the same key run in order, one after another; different keys run side by side
   * (e.g. the session of a host event: each session's order is kept, sessions do not wait for each
   * other). Records whose body does not parse get a key of their own.
   */
  groupBy?: (body: T) => string;
  /**
   * With `groupBy`: handles the parsed records of one group together, in order (one batch of
   * storage writes for several records), answering per record whether it succeeded. A throw
   * fails the whole group.
   */
  handleGroup?: (items: Array<{ body: T; meta: RecordMeta }>) => Promise<boolean[]>;
}

export interface RecordMeta {
  messageId: string;
  receiveCount: number;
}

/**
 * Parses each record with `schema` and runs `handle`; failures are reported per record
 * (`reportBatchItemFailures`), so SQS retries only those and moves them to the DLQ after maxReceiveCount.
 * A record that does not parse is reported failed at once: it ends in the DLQ where it can be inspected.
 */
export async function processRecords<T>(
  records: SQSRecord[],
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
  opts: ProcessOptions<T> = {},
): Promise<SQSBatchResponse> {
  observeAges(records);
  const outcomes: boolean[] = [];
  if (opts.groupBy) {
    const groups = indicesByKey(
      records,
      (r) => groupKeyOf(r, schema, opts.groupBy!) ?? `record:${r.messageId}`,
    );
    await Promise.all(
      groups.map(async (idx) => {
        if (opts.handleGroup && idx.length > 1) {
          await processGroup(records, idx, schema, opts.handleGroup, outcomes);
          return;
        }
        for (const i of idx) outcomes[i] = await processOne(records[i]!, schema, handle);
      }),
    );
  } else if (opts.concurrent) {
    outcomes.push(...(await Promise.all(records.map((record) => processOne(record, schema, handle)))));
  } else {
    for (const record of records) outcomes.push(await processOne(record, schema, handle));
  }
  return failuresOf(records, outcomes);
}

/**
 * Parses each record and hands every parsed one to `handleBatch` at once, in order (the handler
 * keeps whatever order it needs, e.g. per session, and can write several sessions' records
 * together), which answers per record whether it succeeded. A record that does not parse, or a
 * throw (the whole batch), is reported failed.
 */
export async function processBatch<T>(
  records: SQSRecord[],
  schema: z.ZodType<T>,
  handleBatch: BatchHandler<T>,
): Promise<SQSBatchResponse> {
  observeAges(records);
  const outcomes: boolean[] = [];
  await processGroup(
    records,
    records.map((_, i) => i),
    schema,
    handleBatch,
    outcomes,
  );
  return failuresOf(records, outcomes);
}

export type BatchHandler<T> = (items: Array<{ body: T; meta: RecordMeta }>) => Promise<boolean[]>;

function observeAges(records: SQSRecord[]): void {
  const now = Date.now();
  for (const r of records) {
    const sent = Number(r.attributes?.SentTimestamp);
    if (sent > 0) observeQueueAge(queueOf(r), now - sent);
  }
}

const failuresOf = (records: SQSRecord[], outcomes: boolean[]): SQSBatchResponse => ({
  batchItemFailures: records.filter((_, i) => !outcomes[i]).map((r) => ({ itemIdentifier: r.messageId })),
});

/** The queue's name: the last part of the event source ARN (locally, the name itself). */
const queueOf = (record: SQSRecord) => record.eventSourceARN.split(':').at(-1) ?? record.eventSourceARN;

function groupKeyOf<T>(record: SQSRecord, schema: z.ZodType<T>, groupBy: (body: T) => string) {
  try {
    const parsed = schema.safeParse(JSON.parse(record.body));
    return parsed.success ? groupBy(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}

/** The records `idx` of one group (or the whole batch), handled together; fills in their outcomes. */
async function processGroup<T>(
  records: SQSRecord[],
  idx: number[],
  schema: z.ZodType<T>,
  handleGroup: BatchHandler<T>,
  outcomes: boolean[],
): Promise<void> {
  const items: Array<{ i: number; body: T; meta: RecordMeta }> = [];
  for (const i of idx) {
    const record = records[i]!;
    const parsed = parseRecord(record, schema);
    if (parsed === undefined) outcomes[i] = false;
    else items.push({ i, body: parsed.data, meta: metaOf(record) });
  }
  if (!items.length) return;
  try {
    const ok = await handleGroup(items.map(({ body, meta }) => ({ body, meta })));
    items.forEach((it, n) => {
      outcomes[it.i] = ok[n] === true;
    });
  } catch (err) {
    logger.error({ err, records: items.length }, 'record group failed; SQS will retry it');
    for (const it of items) outcomes[it.i] = false;
  }
}

const metaOf = (record: SQSRecord): RecordMeta => ({
  messageId: record.messageId,
  receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? '1'),
});

function parseRecord<T>(record: SQSRecord, schema: z.ZodType<T>): { data: T } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    logger.warn({ messageId: record.messageId }, 'record body is not JSON');
    return undefined;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    logger.warn({ messageId: record.messageId, issues: parsed.error.issues.slice(0, 3) }, 'record rejected');
    return undefined;
  }
  return { data: parsed.data };
}

/** One record; answers false when SQS should deliver it again. */
async function processOne<T>(
  record: SQSRecord,
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
): Promise<boolean> {
  const meta = {
    messageId: record.messageId,
    receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? '1'),
  };
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    logger.warn({ messageId: record.messageId }, 'record body is not JSON');
    return false;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    logger.warn({ messageId: record.messageId, issues: parsed.error.issues.slice(0, 3) }, 'record rejected');
    return false;
  }
  try {
    await handle(parsed.data, meta);
    return true;
  } catch (err) {
    logger.error({ messageId: record.messageId, err }, 'record failed; SQS will retry it');
    return false;
  }
}

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export function sqsHandler<T>(
  schema: z.ZodType<T>,
  handle: RecordHandler<T>,
  opts: ProcessOptions<T> = {},
): SqsHandler {
  return async (event) => {
    try {
      return await processRecords(event.Records, schema, handle, opts);
    } finally {
      flushMetrics();
    }
  };
}

/** The Lambda handler of a consumer that takes each SQS batch whole (`processBatch`). */
export function sqsBatchHandler<T>(schema: z.ZodType<T>, handleBatch: BatchHandler<T>): SqsHandler {
  return async (event) => {
    try {
      return await processBatch(event.Records, schema, handleBatch);
    } finally {
      flushMetrics();
    }
  };
}

export interface PollOptions {
  /**
   * How long one receive waits for a message (SQS long polling, up to 20). A receive returns as soon
   * as a message arrives, so a longer wait costs no latency, only fewer empty (billed) receives;
   * `stop()` does not wait for a waiting receive (below).
   */
  waitSeconds?: number;
  batchSize?: number;
  visibilityTimeout?: number;
  /**
   * Pipelined mode. The loop keeps receiving while earlier messages are being handled (up to
   * `maxInFlight` messages at once) and hands each message to the lane `keyOf(body)` names: a lane
   * runs its messages one at a time in the order they were received, different lanes run side by
   * side. Messages with no key get a lane each. Receives stay one at a time, so the lanes see the
   * queue's order.
   */
  lanes?: {
    keyOf: (body: string) => string | undefined;
    maxInFlight?: number;
    /**
     * How many of a lane's waiting messages go to the handler at once (default: `batchSize`). Larger
     * than a receive when the handler does per-batch work (one transaction for the lot), so a busy
     * lane catches up in fewer, larger steps.
     */
    handOver?: number;
    /**
     * The batches of lanes that are ready at the same moment go to the handler in one call (each
     * lane still has one batch at a time, so its order holds), so that a handler that writes
     * several lanes' records together (`sqsBatchHandler`) can: many sessions with one or two messages
     * each then cost one transaction, not one each. The number is how many such calls may run at
     * once; lanes that become ready meanwhile wait for one to end and go together in the next (a
     * group commit: the busier the queue, the larger the batches, with no timer).
     */
    combine?: number;
    /**
     * With `combine`: lanes for which this is true run their batches on their own, not joined to
     * (nor counted among) the combined calls, so that a lane known to be slow (a slow tenant's
     * webhook jobs) cannot hold up the lanes that share a call with it, nor the next receive.
     */
    isolate?: (key: string) => boolean;
  };
}

const toRecord = (queueName: string, m: Message): SQSRecord =>
  ({
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: m.Attributes ?? {},
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueName,
    awsRegion: runtimeEnv().AWS_REGION,
  }) as SQSRecord;

export interface QueuePoller {
  /**
   * Resolves once what was received is handled (and deleted where it succeeded); nothing more is
   * handed to the handler. A receive still waiting on SQS is not waited for: whatever it gets
   * later goes back to the queue at once, for the next consumer.
   */
  stop(): Promise<void>;
  /** Resolves once that last receive has ended too (at most `waitSeconds` after `stop`). */
  drained(): Promise<void>;
}

/**
 * Locally, the same Lambda handler is driven by a long-polling loop: receive, invoke, delete what
 * succeeded. Failed records become visible again after the visibility timeout, as with the Lambda trigger.
 */
export function pollQueue(queueName: string, handler: SqsHandler, opts: PollOptions = {}): QueuePoller {
  let running = true;
  let lanes: Lanes | undefined;
  let deleter: Deleter | undefined;
  // A receive is not cut short (aborted): SQS, or the local server, may still hand a message to the
  // closed request, hiding it for its visibility timeout. It ends by itself within its wait.
  let receiving = false;
  const loop = (async () => {
    const url = await queueUrl(queueName);
    const del = new Deleter(url);
    deleter = del;
    if (opts.lanes) {
      // A lane hands everything it has waiting (up to a batch) to the handler at once, in order.
      const handOver = opts.lanes.handOver ?? opts.batchSize ?? SQS_BATCH_MAX;
      lanes = new Lanes(
        opts.lanes.maxInFlight ?? 300,
        handOver,
        async (batch) => {
          const heartbeat = opts.visibilityTimeout
            ? keepInvisible(url, batch, opts.visibilityTimeout)
            : undefined;
          try {
            const { batchItemFailures } = await handler({
              Records: batch.map((m) => toRecord(queueName, m)),
            });
            const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
            for (const m of batch) if (!failed.has(m.MessageId ?? '')) del.add(m);
            return batch.filter((m) => failed.has(m.MessageId ?? ''));
          } catch (err) {
            logger.error({ err, queue: queueName }, 'handler failed');
            return batch;
          } finally {
            clearInterval(heartbeat);
          }
        },
        opts.lanes.combine,
        opts.lanes.isolate,
      );
    }
    while (running) {
      try {
        if (lanes) {
          await lanes.room();
          await lanes.free();
        }
        if (!running) break;
        receiving = true;
        const r = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: url,
            MaxNumberOfMessages: opts.batchSize ?? SQS_BATCH_MAX,
            WaitTimeSeconds: opts.waitSeconds ?? 1,
            VisibilityTimeout: opts.visibilityTimeout,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'MessageGroupId', 'SentTimestamp'],
          }),
        );
        receiving = false;
        const messages = r.Messages ?? [];
        if (!running) {
          await returnToQueue(url, messages);
          break;
        }
        if (!messages.length) continue;
        if (lanes && opts.lanes) {
          for (const m of messages) {
            let key: string | undefined;
            try {
              key = opts.lanes.keyOf(m.Body ?? '');
            } catch {}
            lanes.add(key ?? `message:${m.MessageId}`, m);
          }
          continue;
        }
        const records = messages.map((m) => toRecord(queueName, m));
        const heartbeat = opts.visibilityTimeout
          ? keepInvisible(url, messages, opts.visibilityTimeout)
          : undefined;
        const { batchItemFailures } = await handler({ Records: records }).finally(() =>
          clearInterval(heartbeat),
        );
        const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
        for (const m of messages) if (!failed.has(m.MessageId ?? '')) del.add(m);
        await del.flush();
      } catch (err) {
        receiving = false;
        if (!running) break;
        logger.error({ err, queue: queueName }, 'poll failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await lanes?.idle();
    await del.flush();
  })();
  return {
    async stop() {
      running = false;
      if (!receiving) return loop;
      // The loop waits on SQS: what it received before is in the lanes and the deleter.
      await lanes?.idle();
      await deleter?.flush();
    },
    drained: () => loop,
  };
}

/** Messages received after the consumer stopped: visible again at once, not after their timeout. */
async function returnToQueue(url: string, messages: Message[]): Promise<void> {
  await changeVisibility(
    url,
    messages.map((m) => ({ receiptHandle: m.ReceiptHandle, seconds: 0 })),
  ).catch((err) =>
    logger.warn({ err }, 'returning messages failed; they return after their visibility timeout'),
  );
}

/**
 * Ordered lanes of messages with a bound on the messages held across all of them. A lane runs one
 * batch at a time: whatever waits in it when the previous batch is done, up to `batchSize`.
 */
const LANE_RETRIES = 3;
const LANE_RETRY_MS = 100;

export class Lanes {
  private readonly lanes = new Map<string, { pending: Message[]; running: Promise<void> | undefined }>();
  private held = 0;
  private waiters: Array<() => void> = [];
  /** With `combine`: the calls to `work` under way, and who waits for one of them to end. */
  private calls = 0;
  private callWaiters: Array<() => void> = [];
  /**
   * With `combine`: the lanes' batches ready together, to `work` in one call, with who waits for
   * each; at most `combine` such calls at once, so that batches ready meanwhile join the next one.
   */
  private readonly together: (w: { batch: Message[]; done: (failed: Message[]) => void }) => void;
  constructor(
    private readonly max: number,
    private readonly batchSize: number,
    /** Handles a batch; answers the messages that failed. */
    private readonly work: (batch: Message[]) => Promise<Message[]>,
    /**
     * Lanes ready together hand their batches to `work` in one call, at most this many calls at
     * once (0: each lane's batch on its own).
     */
    private readonly combine = 0,
    /** Lanes whose batches go to `work` on their own even with `combine`. */
    private readonly isolate: (key: string) => boolean = () => false,
  ) {
    this.together = groupCommit(Math.max(1, combine), async (waiting) => {
      const all = waiting.flatMap((w) => w.batch);
      this.calls++;
      const failed = await this.work(all).catch(() => all);
      this.calls--;
      for (const w of this.callWaiters.splice(0)) w();
      const ids = new Set(failed.map((m) => m.MessageId));
      for (const w of waiting) w.done(w.batch.filter((m) => ids.has(m.MessageId)));
    });
  }

  /** Runs a lane's batch: alone, or with the other lanes' batches ready together. */
  private submit(key: string, batch: Message[]): Promise<Message[]> {
    if (!this.combine || this.isolate(key)) return this.work(batch).catch(() => batch);
    return new Promise((done) => this.together({ batch, done }));
  }

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

  private async run(key: string, lane: { pending: Message[]; running: Promise<void> | undefined }) {
    await Promise.resolve();
    while (lane.pending.length) {
      const batch = lane.pending.splice(0, this.batchSize);
      // A failed message is retried here before the lane moves on, so a passing failure (a
      // transaction conflict, a throttled write) does not let later messages overtake it; past
      // the retries it is left to the queue's redelivery and dead-letter queue.
      let failed = await this.submit(key, batch);
      for (let retry = 0; failed.length && retry < LANE_RETRIES; retry++) {
        await new Promise((r) => setTimeout(r, LANE_RETRY_MS * 2 ** retry));
        failed = await this.submit(key, failed);
      }
      this.held -= batch.length;
      for (const w of this.waiters.splice(0)) w();
    }
    lane.running = undefined;
    this.lanes.delete(key);
  }

  /**
   * With `combine`: resolves once fewer than `combine` calls are under way, i.e. once a batch would
   * go to the handler at once. Until then, what a receive brings would only wait here; left in the
   * queue meanwhile, it comes in one receive instead of one each (docs/benchmarks.md).
   */
  async free(): Promise<void> {
    while (this.combine && this.calls >= this.combine)
      await new Promise<void>((r) => this.callWaiters.push(r));
  }

  /** Resolves once fewer than `max` messages are held. */
  async room(): Promise<void> {
    while (this.held >= this.max) await new Promise<void>((r) => this.waiters.push(r));
  }

  async idle(): Promise<void> {
    while (this.lanes.size) await Promise.allSettled([...this.lanes.values()].map((l) => l.running));
  }
}

/** Deletes handled messages in batches of up to ten, one request in flight at a time. */
class Deleter {
  private pending: Message[] = [];
  private flushing: Promise<void> | undefined;
  constructor(private readonly url: string) {}

  add(m: Message): void {
    this.pending.push(m);
    this.flushing ??= Promise.resolve().then(() => this.drain());
  }

  async flush(): Promise<void> {
    this.flushing ??= Promise.resolve().then(() => this.drain());
    await this.flushing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, SQS_BATCH_MAX);
        await sqsClient()
          .send(
            new DeleteMessageBatchCommand({
              QueueUrl: this.url,
              Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          )
          .catch((err) => logger.warn({ err }, 'delete failed; the messages will be delivered again'));
      }
    } finally {
      this.flushing = undefined;
    }
  }
}

/**
 * While a batch is being worked on, keeps extending its visibility, so a short timeout can be used:
 * if this process dies, its messages come back to another consumer within `seconds`.
 */
function keepInvisible(url: string, messages: Array<{ ReceiptHandle?: string }>, seconds: number) {
  const items = messages.map((m) => ({ receiptHandle: m.ReceiptHandle, seconds }));
  return setInterval(
    () => {
      changeVisibility(url, items).catch((err) => logger.warn({ err }, 'visibility extension failed'));
    },
    Math.max(1000, (seconds * 1000) / 3),
  );
}
