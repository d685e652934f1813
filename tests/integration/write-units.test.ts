import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoClient } from '#shared/aws/clients';
import type { HostEvent } from '#shared/events/types';
import { applyEvents } from '../../functions/events/batch.ts';
import { newTenant, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { meterWriteUnits, type WriteUnits } from '../support/write-units.ts';

/**
 * What an inbound message costs in DynamoDB write units, as DynamoDB Local reports them
 * (ReturnConsumedCapacity): a text message, no chatbot, a webhook configured whose first attempt
 * succeeds. The budget is 5 write units a message (docs/benchmarks.md, "Write units").
 */
const BUDGET_PER_MESSAGE = 5;

let meter: WriteUnits;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let tenantId: string;

beforeAll(async () => {
  meter = meterWriteUnits(dynamoClient());
  hook = await startReceiver();
  const t = await newTenant();
  tenantId = t.id;
  await webhookTo(t.api, hook);
});

afterAll(async () => {
  meter?.stop();
  await hook?.close();
});

const inbound = (sessionId: string, n: number, sender: string): HostEvent => ({
  kind: 'message.inbound',
  tenantId,
  sessionId,
  at: Date.now(),
  message: {
    id: `wu_${randomUUID()}`,
    chatId: `${sender}@s.whatsapp.net`,
    senderPhone: sender,
    senderName: 'Asha',
    kind: 'text',
    text: `hello number ${n}, how much is the blue kurta in size M?`,
    timestampMs: Date.now(),
  },
});

describe('write units per inbound message', () => {
  it('DynamoDB Local reports consumed capacity for writes', async () => {
    meter.reset();
    const [ok] = await applyEvents([inbound('wu-probe', 0, '919800000001')]);
    expect(ok).toBe(true);
    expect(meter.total()).toBeGreaterThan(0);
  });

  it(`costs at most ${BUDGET_PER_MESSAGE} write units a message`, async () => {
    const sessionId = `wu-${randomUUID().slice(0, 8)}`;
    // Warm: the sender's contact is written once a minute, not per message (contact-activity.ts).
    await applyEvents([inbound(sessionId, 0, '919800000002')]);
    await waitFor(async () => hook.requests.length >= 1, 10_000);
    const n = 20;
    const before = hook.requests.length;
    meter.reset();
    for (let i = 1; i <= n; i++) {
      const [ok] = await applyEvents([inbound(sessionId, i, '919800000002')]);
      expect(ok).toBe(true);
    }
    await waitFor(async () => hook.requests.length >= before + n, 10_000);
    const perMessage = meter.total() / n;
    const breakdown = Object.fromEntries(
      [...meter.byKind].map(([kind, parts]) => [
        kind,
        Object.fromEntries(Object.entries(parts).map(([p, u]) => [p, u / n])),
      ]),
    );
    console.log('write units per message', perMessage, JSON.stringify(breakdown));
    // Counted here: every first attempt was made and recorded by this process, none by the queue's.
    expect(meter.byKind.get('delivery')?.table).toBeGreaterThanOrEqual(n);
    expect(meter.byKind.get('message')?.table).toBe(n);
    expect(perMessage, JSON.stringify(breakdown)).toBeLessThanOrEqual(BUDGET_PER_MESSAGE);
  });
});
