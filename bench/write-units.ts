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
 * Run: npx tsx bench/write-units.ts [messages=200] [sessions=4] [sendersPerSession=4] [batch=10] [warm=true]
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

// Warm-up: every session's first message from each sender writes its contact and chat (once a minute
// after that), not counted.
const warm = WARM ? Array.from({ length: SESSIONS * SENDERS }, (_, n) => event(n)) : [];
if (warm.length) await applyEvents(warm);
meter.reset();
const t0 = performance.now();
for (let n = 0; n < MESSAGES; n += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, MESSAGES - n) }, (_, i) => event(n + i));
  const ok = await applyEvents(batch);
  if (ok.some((x) => !x)) throw new Error('an event was not applied');
}
const seconds = (performance.now() - t0) / 1000;
const deadline = Date.now() + 30_000;
while (hook.requests.length < warm.length + MESSAGES && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 100));

const rows = [...meter.byKind].map(([kind, parts]) => {
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  return { kind, parts, perMessage: total / MESSAGES };
});
rows.sort((a, b) => b.perMessage - a.perMessage);
console.log(
  `\n${MESSAGES} messages, ${SESSIONS} sessions × ${SENDERS} senders, ${BATCH} a batch, ${seconds.toFixed(1)} s`,
);
console.log(`webhooks received: ${hook.requests.length - warm.length} of ${MESSAGES}`);
console.log('| Item kind | Table | gsi1 | gsi2 | Per message |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.kind} | ${r.parts.table ?? 0} | ${r.parts.gsi1 ?? 0} | ${r.parts.gsi2 ?? 0} | ${r.perMessage.toFixed(2)} |`,
  );
console.log(`| **total** | | | | **${(meter.total() / MESSAGES).toFixed(2)}** |`);
meter.stop();
await hook.close();
await aws.stop();
process.exit(0);
