import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '#shared/config/env';
import { forgetConfig } from '#shared/webhooks/config-store';
import { firstAttemptCreating } from '#shared/webhooks/job';
import { handler as eventsHandler } from '../../functions/events/handler.ts';
import { handler as webhooksHandler } from '../../functions/webhooks/handler.ts';
import { newTenant, readySession, waitFor } from '../support/client.ts';
import { sqsRecords } from '../support/sqs-records.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * The events consumer makes the first webhook attempts of the messages it stores (no queue hop, no
 * claim: the delivery record is created with the outcome). These run the events handler in the
 * test's own process, as a Lambda would run it, against the local service's store and queues; what
 * it leaves to the webhooks queue is handled by the service's webhooks consumer.
 */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  delete process.env.WEBHOOK_FIRST_ATTEMPTS_BUDGET_MS;
  resetEnvCache();
  for (const close of closers.splice(0)) await close();
});

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const inboundEvent = (tenantId: string, sessionId: string, id: string, text: string, at: number) => ({
  tenantId,
  sessionId,
  at,
  kind: 'message.inbound',
  message: {
    id,
    chatId: '15550007777',
    senderPhone: '15550007777',
    senderName: 'Ravi',
    kind: 'text',
    text,
    timestampMs: at,
  },
});

/** A tenant with a ready session whose webhook is a receiver of ours (answering after `delayMs`). */
async function tenantWithReceiver(name: string, delayMs = 0) {
  const t = await newTenant(name);
  const s = await readySession(t.api);
  const recv = await startReceiver(() => 200, { delayMs });
  closers.push(recv.close);
  return { t, s, recv };
}

const configure = (t: Tenant, url: string) =>
  t.api.post('/api/webhook/config', { webhookUrl: url, approvedDomains: ['127.0.0.1'] });

async function deliveriesOf(t: Tenant) {
  const r = await t.api.get('/api/webhook/deliveries?limit=100');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.deliveries as Array<Record<string, any>>;
}

describe('first webhook attempts made by the events consumer', () => {
  it('an event applied twice at once POSTs once; the replay’s takeover job finds the outcome and sends nothing', async () => {
    // A receiver slow enough that the second consumer replays the event while the first one's
    // POST is still under way.
    const { t, s, recv } = await tenantWithReceiver('first-dup', 1_000);
    await configure(t, recv.url);
    const now = Date.now();
    const event = inboundEvent(t.id, s.sessionId, `DUP${now}`, 'said once', now);
    // The same SQS message handled by two consumers at once (a standard queue's duplicate).
    const results = await Promise.all([
      eventsHandler({ Records: sqsRecords([event], 'a') }),
      eventsHandler({ Records: sqsRecords([event], 'b') }),
    ]);
    expect(results.map((r) => r.batchItemFailures)).toEqual([[], []]);
    const post = await waitFor(
      async () => recv.of('message.inbound', event.message.id)[0],
      10_000,
      'the POST',
    );
    const deliveryId = String(post.headers['x-service-delivery-id']);
    const recorded = await waitFor(
      async () => (await deliveriesOf(t)).find((d) => d.id === deliveryId && d.status === 'delivered'),
      10_000,
      'the delivery recorded',
    );
    expect(recorded).toMatchObject({ attempts: 1, lastStatusCode: 200, round: 0 });
    expect(recorded.attemptLog).toHaveLength(1);
    // The replay queued the first attempt 20 s later, payload in the job and no record written (its
    // POST might have been under way elsewhere). Handled now, it finds the outcome and does nothing.
    const takeover = firstAttemptCreating(
      { tenantId: t.id, id: deliveryId, sessionId: s.sessionId, event: 'message.inbound', body: post.body },
      now,
    );
    const handled = await webhooksHandler({ Records: sqsRecords([takeover], 'takeover') });
    expect(handled.batchItemFailures).toEqual([]);
    // Long enough for a job queued at once by the replay to have been POSTed by the service.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(recv.of('message.inbound', event.message.id)).toHaveLength(1);
    expect((await deliveriesOf(t)).filter((d) => d.id === deliveryId)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1 }),
    ]);
  }, 30_000);

  it('an event whose consumer died before its POST: the redelivery queues the attempt, which is made once', async () => {
    const { t, s, recv } = await tenantWithReceiver('first-crash');
    const now = Date.now();
    const event = inboundEvent(t.id, s.sessionId, `CRASH${now}`, 'stored, never posted', now);
    // What a consumer leaves when it dies between storing the message and its first attempt: the
    // message stored, no delivery record. (No webhook is configured yet, so nothing is sent.)
    expect((await eventsHandler({ Records: sqsRecords([event], 'first') })).batchItemFailures).toEqual([]);
    await configure(t, recv.url);
    // This process remembers the configuration it read for up to 5 s (CONFIG_CACHE_MS); forgetting it
    // now is what those 5 s would do.
    forgetConfig(t.id);
    // SQS delivers the event again: the message is stored already, so its attempt is queued for
    // later (it might be under way elsewhere), and the service's webhooks consumer makes it.
    expect((await eventsHandler({ Records: sqsRecords([event], 'again') })).batchItemFailures).toEqual([]);
    expect(recv.of('message.inbound', event.message.id)).toHaveLength(0);
    await waitFor(async () => recv.of('message.inbound', event.message.id).length >= 1, 35_000, 'the POST');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(recv.of('message.inbound', event.message.id)).toHaveLength(1);
    const list = await deliveriesOf(t);
    expect(list).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  }, 60_000);

  it('a slow receiver holds the consumer only for its budget: the rest go through the queue, each POSTed once', async () => {
    const { t, s, recv } = await tenantWithReceiver('first-slow', 1_500);
    await configure(t, recv.url);
    process.env.WEBHOOK_FIRST_ATTEMPTS_BUDGET_MS = '300';
    resetEnvCache();
    const now = Date.now();
    const events = [0, 1, 2].map((n) =>
      inboundEvent(t.id, s.sessionId, `SLOW${n}${now}`, `slow ${n}`, now + n),
    );
    const t0 = performance.now();
    const result = await eventsHandler({ Records: sqsRecords(events, 'slow') });
    const tookMs = performance.now() - t0;
    expect(result.batchItemFailures).toEqual([]);
    // Waiting for all three, one after another, would take 4.5 s.
    expect(tookMs).toBeLessThan(3_000);
    const ids = events.map((e) => e.message.id);
    await waitFor(
      async () => ids.every((id) => recv.of('message.inbound', id).length >= 1),
      15_000,
      'all three POSTs',
    );
    await waitFor(
      async () => (await deliveriesOf(t)).filter((d) => d.status === 'delivered').length === 3,
      15_000,
      'all three recorded as delivered',
    );
    // The first POST was under way at the deadline: its takeover job comes 20 s later
    // (TAKEOVER_DELAY_MS) and must find the outcome recorded (nothing sent again). Handled here and
    // now rather than waited for, for each of the three: none is sent again.
    const posts = ids.flatMap((id) => recv.of('message.inbound', id).slice(0, 1));
    expect(posts).toHaveLength(3);
    const takeovers = posts.map((post) =>
      firstAttemptCreating(
        {
          tenantId: t.id,
          id: String(post.headers['x-service-delivery-id']),
          sessionId: s.sessionId,
          event: 'message.inbound',
          body: post.body,
        },
        now,
      ),
    );
    const handled = await webhooksHandler({ Records: sqsRecords(takeovers, 'takeover') });
    expect(handled.batchItemFailures).toEqual([]);
    for (const id of ids) expect(recv.of('message.inbound', id)).toHaveLength(1);
    const list = await deliveriesOf(t);
    expect(list).toHaveLength(3);
    for (const d of list) expect(d).toMatchObject({ status: 'delivered', attempts: 1 });
  }, 60_000);
});
