/**
 * What `npm run cost` cannot read from the template: how the running service uses what the template
 * creates. Each figure says where it comes from; the prices are in prices.ts, the resources in the
 * template, the host's timings in the code that owns them (scripts/cost.ts reads them).
 */

/**
 * Lambda's SQS event source polls an idle queue with long polls of 20 s from five pollers at once
 * (AWS Lambda's documented minimum): 15 empty receives a minute per event source mapping.
 */
export const ESM_IDLE_RECEIVES_PER_MINUTE = 5 * (60 / 20);

/**
 * Log data an idle stack still ingests a month, GB: the VPC flow log's refused connections (internet
 * scanners probing the public addresses) and the hosts' few lines. An assumption; see the group
 * sizes in CloudWatch for your own.
 */
export const IDLE_LOG_GB_PER_MONTH = 0.5;

/**
 * A host's full lease read (connection-host/plan-reads.ts: when the plan's version moved, and every
 * 15-22 ticks) reads every shard's lease in one eventually consistent Query: half a read unit per
 * 4 KB, a lease item (pk, sk, shard, owner, fence) being about this many bytes (`bench/lease-reads.ts`
 * measured 7.0 units for 1,024 leases).
 */
export const LEASE_ITEM_BYTES = 56;
/** …and the live hosts' heartbeats (one eventually consistent Query under 4 KB for a few hosts: half a read unit). */
export const HOST_LIST_READ_UNITS = 0.5;
/** A tick at rest reads the plan's version and a few heartbeats: half a read unit each. */
export const SMALL_READ_UNITS = 0.5;

/** One flow a message takes, as counts per message; the functions' memory comes from the template. */
export interface MessageFlow {
  name: string;
  /** Which of the stack's functions run, how often per message and for how long (ms, billed). */
  invocations: Array<{ service: string; count: number; ms: number }>;
  httpApiRequests: number;
  sqsStandard: number;
  sqsFifo: number;
  dynamoWriteUnits: number;
  dynamoReadUnits: number;
  s3Puts: number;
  /** Log lines ingested (Lambda START/END/REPORT, the EMF metrics line, the access log line). */
  logKb: number;
  /** Bytes the hosts exchange with the network and SQS per message: through the NAT gateway when there is one. */
  hostTrafficKb: number;
  /** Bytes the service sends out to the internet (the webhook POSTs). */
  dataOutKb: number;
}

/**
 * An inbound text message with one webhook subscribed, delivered on the first attempt, at low
 * traffic (one message per batch: the worst case; batches of ten divide the Lambda and SQS lines).
 * - SQS: the host's SendMessage to the events queue (connection-host/emit.ts), the event source's
 *   receive and its DeleteMessageBatch.
 * - DynamoDB write units (on-demand, 1 unit per KB, 2 inside a transaction): 5 on the data table,
 *   measured by bench/write-units.ts (docs/benchmarks.md, "Write units": the message with its two
 *   index entries, 3; its delivery record written once with the first attempt's outcome, 2; the
 *   chat, the sender's contact and the day's counter once a minute); the Signal session the
 *   decryption advanced, on the auth table in a transaction checked against the session's epoch
 *   (connection-host/drivers/baileys/auth-state.ts, about 3 KB): 6. Total 11.
 * - Reads: the session and the webhook configuration (cached by warm instances): about 2 units.
 */
export const INBOUND_MESSAGE: MessageFlow = {
  name: 'inbound message (one webhook)',
  invocations: [{ service: 'events', count: 1, ms: 200 }],
  httpApiRequests: 0,
  sqsStandard: 3,
  sqsFifo: 0,
  dynamoWriteUnits: 5 + 6,
  dynamoReadUnits: 2,
  s3Puts: 0,
  logKb: 1.5,
  hostTrafficKb: 4,
  dataOutKb: 1.5,
};

/**
 * A sent text message, with its `message.status` webhooks for sent, delivered and read.
 * - Accepting it (bench/send-latency.ts; docs/benchmarks.md, "Send"): 1 GetItem, 1 UpdateItem (the
 *   quota), 1 UpdateItem (the day's usage counters), 1 PutItem (the message, 1 KB, and its two index entries: 3 units), 1 FIFO SendMessage.
 * - The host: one FIFO receive and delete, the Signal session (6 units, as above), three status
 *   events (sent, delivered, read) sent to the events queue.
 * - Each status event: one events-consumer invocation with its receive and delete, and 9.4 units
 *   as `bench/write-units.ts 200 4 4 10 true status` measures them: the message's status with its
 *   two index entries, 3; its delivery record written when queued, then claimed and its first
 *   attempt's outcome written by the webhooks consumer, 6.4.
 */
export const SENT_MESSAGE: MessageFlow = {
  name: 'sent message (3 status webhooks)',
  invocations: [
    { service: 'api', count: 1, ms: 100 },
    { service: 'events', count: 3, ms: 200 },
  ],
  httpApiRequests: 1,
  sqsStandard: 3 * 3,
  sqsFifo: 3,
  dynamoWriteUnits: 1 + 1 + 3 + 6 + 3 * 9.4,
  dynamoReadUnits: 0.5 + 3 * 2,
  s3Puts: 0,
  logKb: 4 * 1.5,
  hostTrafficKb: 8,
  dataOutKb: 3 * 1.5,
};

/** An inbound image: the same as a text, plus its media stored (one PUT) and the media consumer's analysis. */
export const INBOUND_IMAGE: MessageFlow = {
  ...INBOUND_MESSAGE,
  name: 'inbound image (one webhook, analysed)',
  invocations: [...INBOUND_MESSAGE.invocations, { service: 'media', count: 1, ms: 1500 }],
  sqsStandard: INBOUND_MESSAGE.sqsStandard + 3,
  dynamoWriteUnits: INBOUND_MESSAGE.dynamoWriteUnits + 2,
  s3Puts: 1,
  logKb: INBOUND_MESSAGE.logKb + 1.5,
  hostTrafficKb: INBOUND_MESSAGE.hostTrafficKb + 150,
};

export const MESSAGE_FLOWS = [INBOUND_MESSAGE, SENT_MESSAGE, INBOUND_IMAGE];
