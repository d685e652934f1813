import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoClient } from '#shared/aws/clients';
import { createDelivery, type Delivery, getDelivery } from '#shared/webhooks/repository';
import { processInOrderGroups } from '../../shared/webhooks/deliver.ts';
import { newTenant } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { must } from '../support/must.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * A session's first attempts handled as one group by the webhooks consumer, against the local
 * DynamoDB: claimed together, POSTed in order, recorded together; and the job-by-job path whenever
 * the group cannot be claimed at once.
 */
const requests: string[] = [];
const counter =
  (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
    requests.push(context.commandName ?? '');
    return next(args);
  };

let hook: Awaited<ReturnType<typeof startReceiver>>;
let tenantId: string;

beforeAll(async () => {
  dynamoClient().middlewareStack.add(counter as never, { step: 'initialize', name: 'group-test-count' });
  hook = await startReceiver();
  const t = await newTenant();
  tenantId = t.id;
  await webhookTo(t.api, hook);
});

afterAll(async () => {
  dynamoClient().middlewareStack.remove('group-test-count');
  await hook?.close();
});

async function deliveries(n: number): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let i = 0; i < n; i++) {
    const now = new Date().toISOString();
    const id = `whd_${randomUUID()}`;
    const d: Delivery = {
      id,
      tenantId,
      sessionId: 'sess-group',
      event: 'message.inbound',
      body: JSON.stringify({ event: 'message.inbound', id, n: i }),
      status: 'pending',
      round: 0,
      attempts: 0,
      url: null,
      attemptLog: [],
      createdAt: now,
      updatedAt: now,
    };
    expect(await createDelivery(d, Date.now())).toBe(true);
    out.push(d);
  }
  return out;
}

/** One session's first attempts, as the consumer hands them over: one group. */
const inOrder = async (jobs: ReturnType<typeof jobsOf>) => (await processInOrderGroups([jobs]))[0];
const jobsOf = (ds: Delivery[]) =>
  ds.map((d) => ({ tenantId, deliveryId: d.id, round: 0, attempt: 1, sessionId: d.sessionId }));
describe('webhooks consumer: a session group', () => {
  it('claims a group in one transaction, POSTs in order and records the outcomes in one transaction', async () => {
    const ds = await deliveries(5);
    const before = requests.length;
    const handled = await inOrder(jobsOf(ds));
    const made = requests.slice(before);
    expect(handled).toEqual([true, true, true, true, true]);
    const bodies = hook.requests.map((r) => r.body);
    const order = ds.map((d) => bodies.indexOf(d.body));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Two transactions and one batch read for five deliveries (the webhook configuration may be read too).
    expect(made.filter((c) => c === 'TransactWriteItemsCommand')).toHaveLength(2);
    expect(made.filter((c) => c === 'BatchGetItemCommand')).toHaveLength(1);
    expect(made.filter((c) => c === 'UpdateItemCommand')).toHaveLength(0);
    for (const d of ds) expect((await getDelivery(tenantId, d.id))?.status).toBe('delivered');
  });

  it('falls back to job by job when one of the group was handled already: the rest go once, in order', async () => {
    const ds = await deliveries(4);
    // The second one was delivered by an earlier run.
    expect(await inOrder(jobsOf([must(ds[1], 'ds[1]'), must(ds[2], 'ds[2]')]))).toEqual([true, true]);
    const bodies = () => hook.requests.map((r) => r.body);
    const countOf = (d: Delivery) => bodies().filter((b) => b === d.body).length;
    const handled = await inOrder(jobsOf(ds));
    expect(handled).toEqual([true, true, true, true]);
    expect(ds.map(countOf)).toEqual([1, 1, 1, 1]);
    expect(bodies().lastIndexOf(must(ds[0], 'ds[0]').body)).toBeLessThan(
      bodies().lastIndexOf(must(ds[3], 'ds[3]').body),
    );
    for (const d of ds) expect((await getDelivery(tenantId, d.id))?.status).toBe('delivered');
  });
});
