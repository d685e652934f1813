import { randomUUID } from 'node:crypto';
import { bootstrapResources } from '../scripts/local/bootstrap.ts';
import { startLocalAws } from '../scripts/local/local-aws.ts';
import { dynamoClient } from '../shared/aws/clients.ts';
import { env, resetEnvCache } from '../shared/config/env.ts';
import type { HostEvent } from '../shared/events/types.ts';
import { putWebhookConfig } from '../shared/webhooks/config-store.ts';
import { startReceiver } from '../tests/support/webhook-receiver.ts';
import { meterWriteUnits } from '../tests/support/write-units.ts';

/**
 * DynamoDB write units per inbound message, as DynamoDB itself counts them (ReturnConsumedCapacity
 * INDEXES on every write, summed per item kind: tests/support/write-units.ts). The events consumer's
 * code (functions/events/batch.ts) applies inbound text messages against DynamoDB Local (which reports
 * consumed capacity as DynamoDB does), with a webhook configured whose receiver answers 200 and no
 * chatbot; nothing else writes to the table meanwhile (no host, no consumers).
 *
 * Run: npx tsx bench/write-units.ts [messages=200] [sessions=4] [sendersPerSession=4] [batch=10] [warm=true] [flow=inbound]
 * flow=status counts a sent message's status events instead: `messages` outbound messages are stored
 * as the send API stores them (not counted), then each gets `sent`, `delivered` and `read` from the
 * host, each with its `message.status` webhook; the figure is per status event.
 * Messages go round-robin over the sessions and their senders, `batch` events per consumer call (a
 * batch as SQS hands it over). With warm=true each sender's first message is sent before counting
 * (its contact and chat are written then, and again only a minute later); warm=false counts them
 * (with as many senders as messages: every message a new chat). Prints one row per item kind and
 * the total per message.
 */
const MESSAGES = Number(process.argv[2] ?? 200);
const SESSIONS = Number(process.argv[3] ?? 4);
const SENDERS = Number(process.argv[4] ?? 4);
const BATCH = Number(process.argv[5] ?? 10);
const WARM = (process.argv[6] ?? 'true') === 'true';
const FLOW = process.argv[7] ?? 'inbound';
if (FLOW !== 'inbound' && FLOW !== 'status') throw new Error(`flow must be inbound or status, not ${FLOW}`);

const aws = await startLocalAws();
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
process.env.LOG_LEVEL ??= 'warn';
resetEnvCache();
await bootstrapResources(env().RESOURCE_PREFIX, env().SHARD_COUNT);
// Metered from the first request on (clients resolve their middleware once).
const meter = meterWriteUnits(dynamoClient());
const { applyEvents } = await import('../functions/events/batch.ts');
const hook = await startReceiver();
const tenantId = `tnt_bench_${randomUUID().slice(0, 8)}`;
await putWebhookConfig(tenantId, { webhookUrl: hook.url, approvedDomains: ['127.0.0.1'], enabled: true });

const texts = [
  'Hi, is the blue kurta available in size M?',
  'ok',
  'What time do you open tomorrow? I want to come by with my sister around 11.',
  'Thanks!',
];
const event = (n: number): HostEvent => {
  const session = n % SESSIONS;
  const sender = `9198000${String(session * SENDERS + (Math.floor(n / SESSIONS) % SENDERS)).padStart(5, '0')}`;
  return {
    kind: 'message.inbound',
    tenantId,
    sessionId: `bench-s${session}`,
    at: Date.now(),
    message: {
      id: `BENCH${n}${randomUUID().slice(0, 8).toUpperCase()}`,
      chatId: `${sender}@s.whatsapp.net`,
      senderPhone: sender,
      senderName: `Sender ${sender.slice(-3)}`,
      kind: 'text',
      text: texts[n % texts.length],
      timestampMs: Date.now(),
    },
  };
};

const STATUSES = ['sent', 'delivered', 'read'] as const;
/** The status events of outbound message n, in the order the network reports them. */
const statusEvents = (ids: string[]): HostEvent[] =>
  STATUSES.flatMap((status) =>
    ids.map((messageId, n) => ({
      kind: 'message.status' as const,
      tenantId,
      sessionId: `bench-s${n % SESSIONS}`,
      at: Date.now(),
      messageId,
      status,
    })),
  );

async function applyAll(events: HostEvent[]): Promise<void> {
  for (let n = 0; n < events.length; n += BATCH) {
    const ok = await applyEvents(events.slice(n, n + BATCH));
    if (ok.some((x) => !x)) throw new Error('an event was not applied');
  }
}

// Warm-up: every session's first message from each sender writes its contact and chat (once a minute
// after that), not counted.
const warm = WARM && FLOW === 'inbound' ? Array.from({ length: SESSIONS * SENDERS }, (_, n) => event(n)) : [];
if (warm.length) await applyEvents(warm);
let counted: HostEvent[];
if (FLOW === 'status') {
  const { saveMessage } = await import('../shared/messages/repository.ts');
  const ids = Array.from(
    { length: MESSAGES },
    (_, n) => `BENCHOUT${n}${randomUUID().slice(0, 8).toUpperCase()}`,
  );
  for (const [n, messageId] of ids.entries())
    await saveMessage({
      tenantId,
      sessionId: `bench-s${n % SESSIONS}`,
      messageId,
      direction: 'outbound',
      chatId: `9198000${String(n).padStart(5, '0')}@s.whatsapp.net`,
      senderPhone: '919800099999',
      kind: 'text',
      text: texts[n % texts.length],
      status: 'queued',
      timestampMs: Date.now(),
      statusAt: Date.now(),
    });
  counted = statusEvents(ids);
} else counted = Array.from({ length: MESSAGES }, (_, n) => event(n));
meter.reset();
const t0 = performance.now();
await applyAll(counted);
// A status event's webhook is queued (its delivery record written), and the webhooks consumer makes
// the first attempt: that consumer's code runs here on what the queue holds, metered too.
if (FLOW === 'status') await drainWebhooks(counted.length);

async function drainWebhooks(expected: number): Promise<void> {
  const { DeleteMessageCommand, ReceiveMessageCommand } = await import('@aws-sdk/client-sqs');
  const { sqsClient } = await import('../shared/aws/clients.ts');
  const { names } = await import('../shared/aws/names.ts');
  const { queueUrl } = await import('../shared/aws/queue-url.ts');
  const { WebhookJob } = await import('../shared/webhooks/job.ts');
  const { processWebhookBatch } = await import('../functions/webhooks/batch.ts');
  const url = await queueUrl(names.webhooksQueue());
  const until = Date.now() + 60_000;
  for (let done = 0; done < expected && Date.now() < until; ) {
    const got = await sqsClient().send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const messages = got.Messages ?? [];
    if (!messages.length) continue;
    const ok = await processWebhookBatch(messages.map((m) => WebhookJob.parse(JSON.parse(m.Body ?? ''))));
    for (const [i, m] of messages.entries())
      if (ok[i])
        await sqsClient().send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
    done += ok.filter(Boolean).length;
  }
}
const seconds = (performance.now() - t0) / 1000;
const deadline = Date.now() + 30_000;
while (hook.requests.length < warm.length + counted.length && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 100));

const rows = [...meter.byKind].map(([kind, parts]) => {
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  return { kind, parts, perMessage: total / counted.length };
});
rows.sort((a, b) => b.perMessage - a.perMessage);
const unit = FLOW === 'status' ? 'status event' : 'message';
console.log(
  `\n${counted.length} ${unit}s (${FLOW}), ${SESSIONS} sessions × ${SENDERS} senders, ${BATCH} a batch, ${seconds.toFixed(1)} s`,
);
console.log(`webhooks received: ${hook.requests.length - warm.length} of ${counted.length}`);
console.log(`| Item kind | Table | gsi1 | gsi2 | Per ${unit} |`);
console.log('|---|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.kind} | ${r.parts.table ?? 0} | ${r.parts.gsi1 ?? 0} | ${r.parts.gsi2 ?? 0} | ${r.perMessage.toFixed(2)} |`,
  );
console.log(`| **total** | | | | **${(meter.total() / counted.length).toFixed(2)}** |`);
meter.stop();
await hook.close();
await aws.stop();
process.exit(0);
