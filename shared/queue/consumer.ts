import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { indicesByKey } from '../batching.ts';
import { logger } from '../log/logger.ts';
import { flushMetrics } from '../metrics/flush.ts';
import { must } from '../must.ts';
import { handleBody, observeAge, parseBody, type RecordHandler, type RecordMeta } from './received.ts';

/**
 * The Lambda side of a queue: an SQS batch (from the Lambda trigger, or locally from `pollQueue`)
 * parsed record by record with the queue's schema, handled, and answered with the records that
 * failed, so that SQS delivers only those again.
 */

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
  const { groupBy } = opts;
  if (groupBy) {
    const groups = indicesByKey(records, (r) => groupKeyOf(r, schema, groupBy) ?? `record:${r.messageId}`);
    await Promise.all(
      groups.map(async (idx) => {
        if (opts.handleGroup && idx.length > 1) {
          await processGroup(records, idx, schema, opts.handleGroup, outcomes);
          return;
        }
        for (const i of idx) outcomes[i] = await processOne(must(records[i], `record ${i}`), schema, handle);
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
    const sent = r.attributes?.SentTimestamp;
    if (sent) observeAge(queueOf(r), sent, now);
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
    const record = must(records[i], `record ${i}`);
    const parsed = parseBody(record.messageId, record.body, schema);
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

/** One record; answers false when SQS should deliver it again. */
const processOne = <T>(record: SQSRecord, schema: z.ZodType<T>, handle: RecordHandler<T>) =>
  handleBody(record.body, metaOf(record), schema, handle);

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
