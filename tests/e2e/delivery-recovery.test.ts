import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDelivery, type Delivery, getDelivery } from '#shared/webhooks/repository';
import { sweepDeliveries } from '../../functions/webhooks/sweep.ts';
import { newTenant, readySession, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Deliveries a crash left without a job on the queue (written here as the crash left them: the
 * record, no job), re-driven by the sweep `npm start` runs when it starts; and `redeliver` for any
 * delivery that is not delivered. tests/e2e/local-crash.test.ts crashes a whole service.
 */
async function setup() {
  const t = await newTenant();
  const hook = await startReceiver();
  await webhookTo(t.api, hook);
  const s = await readySession(t.api);
  return { t, hook, sessionId: s.sessionId as string };
}

/** A delivery as a crash leaves it: its record with `fields`, and no job anywhere. */
async function stranded(tenantId: string, sessionId: string, fields: Partial<Delivery>): Promise<Delivery> {
  const now = Date.now();
  const id = `dlv_${randomBytes(12).toString('hex')}`;
  const d: Delivery = {
    id,
    tenantId,
    sessionId,
    event: 'message.inbound',
    body: JSON.stringify({ event: 'message.inbound', message_id: id }),
    status: 'pending',
    round: 0,
    attempts: 0,
    url: null,
    attemptLog: [],
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
    ...fields,
  };
  expect(await createDelivery(d, now)).toBe(true);
  return d;
}

/** The POSTs the receiver got for these deliveries (the session's own events aside). */
const postsOf = (hook: Awaited<ReturnType<typeof startReceiver>>, ds: Delivery[]) =>
  hook.requests.filter((r) => ds.some((d) => d.id === r.headers['x-service-delivery-id']));

const deliveredOnce = async (tenantId: string, id: string) =>
  waitFor(
    async () => {
      const d = await getDelivery(tenantId, id);
      return d?.status === 'delivered' ? d : undefined;
    },
    15_000,
    `delivery ${id} delivered`,
  );

describe('deliveries a crash left behind', () => {
  it('the sweep re-drives overdue retrying, pending and stale sending deliveries, and leaves the rest', async () => {
    const { t, hook, sessionId } = await setup();
    try {
      const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
      // Waiting for attempt 3, due a minute ago: its delayed job was lost.
      const retrying = await stranded(t.id, sessionId, {
        status: 'retrying',
        attempts: 2,
        nextAttemptAt: ago(60_000),
      });
      // Recorded, never queued.
      const pending = await stranded(t.id, sessionId, { status: 'pending' });
      // Claimed by a consumer that died mid-POST a minute ago.
      const sending = await stranded(t.id, sessionId, {
        status: 'sending',
        attempts: 1,
        claimToken: 'dead-consumer',
        claimedAt: Date.now() - 60_000,
      });
      // Not due for an hour (its delayed job is on the queue), and delivered: left alone.
      const later = await stranded(t.id, sessionId, {
        status: 'retrying',
        attempts: 1,
        nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const done = await stranded(t.id, sessionId, { status: 'delivered', attempts: 1 });

      expect(await sweepDeliveries({ tenantId: t.id })).toBe(3);

      expect(await deliveredOnce(t.id, retrying.id)).toMatchObject({ round: 0, attempts: 3 });
      expect(await deliveredOnce(t.id, pending.id)).toMatchObject({ round: 0, attempts: 1 });
      expect(await deliveredOnce(t.id, sending.id)).toMatchObject({ round: 0, attempts: 1 });
      for (const d of [retrying, pending, sending]) expect(postsOf(hook, [d])).toHaveLength(1);
      expect(await getDelivery(t.id, later.id)).toMatchObject({ status: 'retrying', attempts: 1 });
      expect(await getDelivery(t.id, done.id)).toMatchObject({ status: 'delivered' });
      expect(postsOf(hook, [later, done])).toEqual([]);

      // A second sweep (the same restart seen twice) POSTs nothing more.
      await sweepDeliveries({ tenantId: t.id });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(postsOf(hook, [retrying, pending, sending, later, done])).toHaveLength(3);
    } finally {
      await hook.close();
    }
  });

  it('redeliver starts a new round now for a retrying or pending delivery; a delivered one or an attempt under way is 409', async () => {
    const { t, hook, sessionId } = await setup();
    try {
      const retrying = await stranded(t.id, sessionId, {
        status: 'retrying',
        attempts: 4,
        nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const r1 = await t.api.post(`/api/webhook/deliveries/${retrying.id}/redeliver`);
      expect(r1.status, JSON.stringify(r1.body)).toBe(200);
      expect(r1.body.delivery).toMatchObject({ status: 'pending', round: 1, attempts: 0 });
      expect(await deliveredOnce(t.id, retrying.id)).toMatchObject({ round: 1, attempts: 1 });

      const pending = await stranded(t.id, sessionId, { status: 'pending' });
      expect((await t.api.post(`/api/webhook/deliveries/${pending.id}/redeliver`)).status).toBe(200);
      expect(await deliveredOnce(t.id, pending.id)).toMatchObject({ round: 1, attempts: 1 });

      // Claimed a minute ago by a consumer that died: redelivered; its late outcome cannot land.
      const stale = await stranded(t.id, sessionId, {
        status: 'sending',
        attempts: 1,
        claimToken: 'dead-consumer',
        claimedAt: Date.now() - 60_000,
      });
      expect((await t.api.post(`/api/webhook/deliveries/${stale.id}/redeliver`)).status).toBe(200);
      const after = await deliveredOnce(t.id, stale.id);
      expect(after).toMatchObject({ round: 1, attempts: 1 });
      expect(after.claimToken).not.toBe('dead-consumer');

      const fresh = await stranded(t.id, sessionId, {
        status: 'sending',
        attempts: 1,
        claimToken: 'live-consumer',
        claimedAt: Date.now(),
      });
      const busy = await t.api.post(`/api/webhook/deliveries/${fresh.id}/redeliver`);
      expect(busy.status).toBe(409);
      expect(busy.body.error.message).toMatch(/under way/);
      const again = await t.api.post(`/api/webhook/deliveries/${retrying.id}/redeliver`);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toMatch(/delivered already/);
      expect(postsOf(hook, [retrying, pending, stale, fresh])).toHaveLength(3);
    } finally {
      await hook.close();
    }
  });
});
