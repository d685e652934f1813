import { ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { sqsClient } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { queueUrl } from '#shared/aws/queue-url';
import { queues } from '#shared/aws/resources';
import { firstAttemptCreating } from '#shared/webhooks/job';
import { verifySignature } from '../../shared/webhooks/sign.ts';
import { messageStored, newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { webhookTo } from '../support/listeners.ts';
import { must } from '../support/must.ts';
import { type ReceivedRequest, startReceiver } from '../support/webhook-receiver.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  closers.push(r.close);
  return r;
}

const inbound = (sessionId: string, text: string, from = '15550001111', name = 'Alice') =>
  simInbound({ sessionId, from, name, text });

type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function deliveries(t: Tenant, query = '') {
  const r = await t.api.get(`/api/webhook/deliveries${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.deliveries as Array<Record<string, any>>;
}

async function deliveryOf(t: Tenant, messageId: string, status?: string) {
  const list = await deliveries(t, status ? `?status=${status}` : '');
  return list.find((d) => d.event === 'message.inbound' && d.payload?.message_id === messageId);
}

const successes = (reqs: ReceivedRequest[]) => reqs.filter((r) => r.status < 300);

describe('webhooks', () => {
  it('delivers message.inbound exactly once with the spec payload, the secret header and a valid signature', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await receiver();
    const secret = 'whsec-test-0123456789';
    const cfg = await t.api.post('/api/webhook/config', {
      webhookUrl: recv.url,
      secretToken: secret,
      approvedDomains: '127.0.0.1, hooks.example.com',
      enabled: true,
    });
    expect(cfg.status, JSON.stringify(cfg.body)).toBe(200);
    expect(cfg.body.config.secretToken).toBe('****6789');
    expect(cfg.body.config.approvedDomains).toEqual(['127.0.0.1', 'hooks.example.com']);

    const messageId = await inbound(s.sessionId, 'hello webhook');
    const req = await waitFor(async () => recv.of('message.inbound', messageId)[0], 15_000, 'the webhook');

    expect(Object.keys(req.json).sort()).toEqual(
      ['content', 'event', 'message_id', 'mobid', 'recipient', 'sender', 'session_id', 'timestamp'].sort(),
    );
    expect(Object.keys(req.json.content).sort()).toEqual(
      [
        'confidence',
        'document_explanation',
        'image_description',
        'media_url',
        'mimetype',
        'ocr_text',
        'text',
        'transcription',
        'video_description',
      ].sort(),
    );
    expect(req.json).toMatchObject({
      event: 'message.inbound',
      session_id: s.sessionId,
      mobid: s.mobid,
      sender: '15550001111',
      recipient: s.mobile_number,
      message_id: messageId,
      content: {
        text: 'hello webhook',
        media_url: null,
        image_description: null,
        ocr_text: null,
        document_explanation: null,
        video_description: null,
        transcription: null,
        confidence: null,
      },
    });
    expect(Number.isInteger(req.json.timestamp)).toBe(true);
    expect(Math.abs(req.json.timestamp - Date.now() / 1000)).toBeLessThan(60);

    expect(req.headers['x-service-secret']).toBe(secret);
    expect(req.headers['content-type']).toBe('application/json');
    const ts = String(req.headers['x-service-timestamp']);
    const sig = String(req.headers['x-service-signature']);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(secret, ts, req.body, sig)).toBe(true);
    expect(verifySignature('wrong-secret', ts, req.body, sig)).toBe(false);
    const deliveryId = String(req.headers['x-service-delivery-id']);
    expect(deliveryId).toMatch(/^dlv_[0-9a-f]{24}$/);

    // Exactly once: one delivery, recorded as delivered on its first attempt. The record is written
    // after the POST, and a delivered delivery is never claimed again, so no POST can follow it.
    const d = await waitFor(async () => deliveryOf(t, messageId, 'delivered'), 10_000, 'delivered');
    expect(d).toMatchObject({ id: deliveryId, status: 'delivered', attempts: 1, lastStatusCode: 200 });
    expect(d.attemptLog).toHaveLength(1);
    expect(recv.of('message.inbound', messageId)).toHaveLength(1);
    expect((await deliveries(t)).filter((x) => x.payload?.message_id === messageId)).toHaveLength(1);

    // The configuration reads back with the secret masked.
    const read = await t.api.get('/api/webhook/config');
    expect(read.body.config).toMatchObject({
      webhookUrl: recv.url,
      secretToken: '****6789',
      hasSecret: true,
    });
    expect(JSON.stringify(read.body)).not.toContain(secret);
  });

  it('refuses a webhook URL whose host is not approved (403) and delivers nothing', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await receiver();

    const denied = await t.api.post('/api/webhook/config', {
      webhookUrl: recv.url,
      approvedDomains: ['hooks.example.com'],
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('DOMAIN_NOT_APPROVED');
    // No allowlist at all (none set, none in the environment) approves nothing.
    const none = await t.api.post('/api/webhook/config', { webhookUrl: recv.url });
    expect(none.status).toBe(403);
    expect(none.body.error.code).toBe('DOMAIN_NOT_APPROVED');
    const bad = await t.api.post('/api/webhook/config', { webhookUrl: 'not a url' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('webhookUrl');

    const messageId = await inbound(s.sessionId, 'nobody should see this');
    // The message itself goes through; then a marker: another tenant's message, produced after this
    // one was stored. Once the marker's delivery exists, this message's webhook has been decided.
    await messageStored(t.api, messageId);
    const other = await newTenant();
    const otherSession = await readySession(other.api);
    const otherRecv = await receiver();
    const cfgOther = { webhookUrl: otherRecv.url, approvedDomains: ['127.0.0.1'] };
    expect((await other.api.post('/api/webhook/config', cfgOther)).status).toBe(200);
    const marker = await inbound(otherSession.sessionId, 'marker');
    await waitFor(async () => deliveryOf(other, marker), 15_000, 'the marker delivery');

    expect(await deliveries(t)).toHaveLength(0);
    expect(recv.requests).toHaveLength(0);
    const read = await t.api.get('/api/webhook/config');
    expect(read.body.config.webhookUrl).toBeNull();
  });

  it('a session override wins over the tenant configuration', async () => {
    const t = await newTenant();
    const a = await readySession(t.api, 'a');
    const b = await readySession(t.api, 'b');
    const tenantRecv = await receiver();
    const sessionRecv = await receiver();
    expect(
      (await t.api.post('/api/webhook/config', { webhookUrl: tenantRecv.url, approvedDomains: '*' })).status,
    ).toBe(200);
    const o = await t.api.post('/api/webhook/config', { sessionId: b.mobid, webhookUrl: sessionRecv.url });
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body.sessionId).toBe(b.sessionId);

    const ma = await inbound(a.sessionId, 'to tenant hook');
    const mb = await inbound(b.sessionId, 'to session hook');
    await waitFor(async () => tenantRecv.of('message.inbound', ma).length === 1, 15_000);
    await waitFor(async () => sessionRecv.of('message.inbound', mb).length === 1, 15_000);
    expect(tenantRecv.of('message.inbound', mb)).toHaveLength(0);
    expect(sessionRecv.of('message.inbound', ma)).toHaveLength(0);

    const listed = await t.api.get('/api/webhook/config');
    expect(listed.body.overrides).toEqual([
      expect.objectContaining({ sessionId: b.sessionId, webhookUrl: sessionRecv.url }),
    ]);
  });

  it('retries a receiver answering 503 until it succeeds; each delivery succeeds exactly once', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const failFirst = 3;
    const seen = new Map<string, number>();
    const recv = await receiver((req) => {
      const id = String(req.headers['x-service-delivery-id']);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      return n <= failFirst ? 503 : 200;
    });
    await t.api.post('/api/webhook/config', { webhookUrl: recv.url, approvedDomains: ['127.0.0.1'] });

    const ids = [await inbound(s.sessionId, 'flaky one'), await inbound(s.sessionId, 'flaky two')];
    for (const id of ids) {
      // Delivered is final (never claimed again): every POST there will be has been made.
      const d = await waitFor(async () => deliveryOf(t, id, 'delivered'), 25_000, `delivery of ${id}`);
      expect(d).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200 });
      expect(d.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 503, 503, 200]);
      const reqs = recv.of('message.inbound', id);
      expect(successes(reqs)).toHaveLength(1);
      expect(reqs).toHaveLength(failFirst + 1);
      // Same delivery id and body on every attempt; the attempt number counts up.
      expect(new Set(reqs.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
      expect(new Set(reqs.map((r) => r.body)).size).toBe(1);
      expect(reqs.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4']);
    }
  }, 60_000);

  it('the same first-attempt job twice on the queue POSTs once (its claim creates the record once)', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await receiver();
    await t.api.post('/api/webhook/config', { webhookUrl: recv.url, approvedDomains: ['127.0.0.1'] });
    // A new delivery's first attempt as the events consumer queues it: payload in the job, record
    // not written yet. Sent twice, as an SQS duplicate or a retried run would.
    const deliveryId = `dlv_${'d'.repeat(24)}`;
    const body = JSON.stringify({
      event: 'message.inbound',
      session_id: s.sessionId,
      message_id: 'DUPLICATED',
    });
    const job = firstAttemptCreating(
      { tenantId: t.id, id: deliveryId, sessionId: s.sessionId, event: 'message.inbound', body },
      Date.now(),
    );
    await sqsClient().send(
      new SendMessageBatchCommand({
        QueueUrl: await queueUrl(names.webhooksQueue()),
        Entries: [0, 1].map((i) => ({ Id: String(i), MessageBody: JSON.stringify(job) })),
      }),
    );
    const d = await waitFor(
      async () => (await deliveries(t, '?status=delivered')).find((x) => x.id === deliveryId),
      15_000,
      'the delivery recorded as delivered',
    );
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      payload: JSON.parse(body),
    });
    // Both jobs are handled before this looks: wait for the queue to be empty of them.
    await new Promise((r) => setTimeout(r, 1_500));
    const posts = recv.requests.filter((r) => r.headers['x-service-delivery-id'] === deliveryId);
    expect(posts).toHaveLength(1);
    expect(must(posts[0], 'posts[0]').body).toBe(body);
    expect((await deliveries(t)).filter((x) => x.id === deliveryId)).toHaveLength(1);
  });

  it('does not retry other 4xx answers', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const recv = await receiver(() => 410);
    await t.api.post('/api/webhook/config', { webhookUrl: recv.url, approvedDomains: ['127.0.0.1'] });
    const id = await inbound(s.sessionId, 'gone');
    // Failed is final: no attempt follows it.
    const d = await waitFor(async () => deliveryOf(t, id, 'failed'), 15_000);
    expect(d).toMatchObject({ attempts: 1, lastStatusCode: 410 });
    expect(d.attemptLog).toHaveLength(1);
    expect(recv.of('message.inbound', id)).toHaveLength(1);
  });

  it('a permanently failing receiver ends failed, in the dead-letter queue, and redelivery works', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    let healthy = false;
    const recv = await receiver(() => (healthy ? 200 : 500));
    await t.api.post('/api/webhook/config', { webhookUrl: recv.url, approvedDomains: ['127.0.0.1'] });

    const id = await inbound(s.sessionId, 'doomed');
    const failed = await waitFor(async () => deliveryOf(t, id, 'failed'), 45_000, 'failed delivery');
    expect(failed).toMatchObject({ status: 'failed', attempts: 10, lastStatusCode: 500, round: 0 });
    expect(failed.attemptLog).toHaveLength(10);
    expect(recv.of('message.inbound', id)).toHaveLength(10);

    // The job is on the webhooks dead-letter queue.
    const dlq = await queueUrl(names.deadLetterQueue(queues.webhooks));
    const found = await waitFor(async () => {
      const r = await sqsClient().send(
        new ReceiveMessageCommand({
          QueueUrl: dlq,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 0,
        }),
      );
      return (r.Messages ?? [])
        .map((m) => JSON.parse(m.Body ?? '{}'))
        .find((b) => b.deliveryId === failed.id);
    }, 10_000);
    expect(found).toMatchObject({
      tenantId: t.id,
      deliveryId: failed.id,
      attempt: 10,
      event: 'message.inbound',
    });

    // Redelivery: a new round against the now healthy receiver.
    healthy = true;
    const again = await t.api.post(`/api/webhook/deliveries/${failed.id}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.delivery).toMatchObject({ status: 'pending', round: 1, attempts: 0 });
    const delivered = await waitFor(async () => deliveryOf(t, id, 'delivered'), 15_000);
    expect(delivered).toMatchObject({ round: 1, attempts: 1, lastStatusCode: 200 });
    expect(successes(recv.of('message.inbound', id))).toHaveLength(1);
    expect(recv.of('message.inbound', id)).toHaveLength(11);

    const twice = await t.api.post(`/api/webhook/deliveries/${failed.id}/redeliver`);
    expect(twice.status).toBe(409);
    const unknown = await t.api.post('/api/webhook/deliveries/dlv_000000000000000000000000/redeliver');
    expect(unknown.status).toBe(404);
    // Another tenant cannot see or redeliver it.
    const other = await newTenant();
    expect((await other.api.post(`/api/webhook/deliveries/${failed.id}/redeliver`)).status).toBe(404);
  }, 90_000);
});

describe('webhooks for a sender known only by a LID', () => {
  it('shows the phone number the network revealed, never the LID as a number', async () => {
    const t = await newTenant();
    const rx = await receiver();
    await webhookTo(t.api, rx);
    const s = await readySession(t.api);
    const id = await simInbound({ sessionId: s.sessionId, from: '919833300001', text: 'via lid', lid: true });
    const hook = await waitFor(async () => rx.of('message.inbound', id)[0]?.json);
    expect(hook.sender).toBe('919833300001');
    expect(hook.content.text).toBe('via lid');
  });
});
