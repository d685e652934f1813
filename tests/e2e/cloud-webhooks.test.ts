import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newTenant, readySession, simInbound, waitFor } from '../support/client.ts';
import { startCloudReceiver } from '../support/cloud-receiver.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const photo = fixtures.png();
let media: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  media = await mediaServer({ 'photo.png': photo });
});
afterAll(() => media.close());

const appSecret = 'cloud-app-secret-0123456789';
const verifyToken = 'verify-me-please';

describe('Cloud-format webhooks', () => {
  it('a whatsapp-api-js receiver verifies the handshake, the signatures, and gets text, image and status; the native webhook gets its own', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const cloud = await startCloudReceiver({ appSecret, verifyToken });
    closers.push(cloud.close);
    const native = await startReceiver();
    closers.push(native.close);

    // Both formats for one tenant.
    expect(
      (await t.api.post('/api/webhook/config', { webhookUrl: native.url, approvedDomains: '127.0.0.1' }))
        .status,
    ).toBe(200);
    const saved = await t.api.post('/api/webhook/config', {
      format: 'cloud',
      webhookUrl: cloud.url,
      appSecret,
      verifyToken,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      format: 'cloud',
      cloud: {
        webhookUrl: cloud.url,
        appSecret: '****6789',
        hasAppSecret: true,
        verifiedAt: expect.any(String),
      },
    });
    expect(JSON.stringify(saved.body)).not.toContain(appSecret);
    const shown = await t.api.get('/api/webhook/config');
    expect(shown.body.config.webhookUrl).toBe(native.url);
    expect(shown.body.cloud).toMatchObject({ webhookUrl: cloud.url, hasAppSecret: true });

    const textId = await simInbound({
      sessionId: s.sessionId,
      from: '919811700001',
      name: 'Zoë',
      text: 'héllo cloud 👋',
    });
    const text = await waitFor(
      async () => cloud.messages.find((m) => m.message.id === `wamid.${textId}`),
      15_000,
      'the text',
    );
    expect(text).toMatchObject({
      phoneID: s.mobid,
      from: '919811700001',
      name: 'Zoë',
      message: { type: 'text', text: { body: 'héllo cloud 👋' }, timestamp: expect.stringMatching(/^\d+$/) },
    });
    expect(text.raw).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: s.mobid, display_phone_number: s.mobile_number },
              },
            },
          ],
        },
      ],
    });
    // The native webhook got the same message in its own format.
    await waitFor(async () => native.of('message.inbound', textId)[0], 15_000, 'the native webhook');

    const imageId = await simInbound({
      sessionId: s.sessionId,
      from: '919811700001',
      type: 'image',
      mediaUrl: media.url('photo.png'),
      mimetype: 'image/png',
    });
    const image = await waitFor(
      async () => cloud.messages.find((m) => m.message.id === `wamid.${imageId}`),
      60_000,
      'the image',
    );
    expect(image.message).toMatchObject({ type: 'image', image: { id: imageId, mime_type: 'image/png' } });
    const bytes = Buffer.from(await (await fetch(image.message.image.url)).arrayBuffer());
    expect(bytes.equals(photo.bytes)).toBe(true);

    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919811700002',
      message: 'status me',
    });
    expect(sent.status).toBe(202);
    const status = await waitFor(
      async () => cloud.statuses.find((x) => x.id === `wamid.${sent.body.messageId}`),
      15_000,
      'a status',
    );
    expect(status).toMatchObject({
      phoneID: s.mobid,
      phone: '919811700002',
      status: expect.stringMatching(/^(sent|delivered|read)$/),
    });

    // Every POST passed the middleware's signature check.
    expect(cloud.answers.length).toBeGreaterThanOrEqual(3);
    expect(cloud.answers.every((a) => a === 200)).toBe(true);

    // The same delivery log: Cloud deliveries carry their own event names.
    const log = await t.api.get('/api/webhook/deliveries');
    const events = (log.body.deliveries as Array<{ event: string; status: string }>).map((d) => d.event);
    expect(events).toContain('cloud.message.inbound');
    expect(events).toContain('cloud.message.status');
    expect(events).toContain('message.inbound');

    const textDelivery = (log.body.deliveries as Array<{ event: string; status: string; payload: any }>).find(
      (d) =>
        d.event === 'cloud.message.inbound' &&
        d.payload.entry[0].changes[0].value.messages[0].id === `wamid.${textId}`,
    );
    expect(textDelivery?.status).toBe('delivered');
  });

  it('refuses a receiver that does not echo the challenge, or checks another verify token; saves nothing', async () => {
    const t = await newTenant();
    const silent = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => silent.close(() => r())));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;

    const body = { format: 'cloud', appSecret, verifyToken, approvedDomains: ['127.0.0.1'] };
    const noEcho = await t.api.post('/api/webhook/config', { ...body, webhookUrl: silentUrl });
    expect(noEcho.status).toBe(400);
    expect(noEcho.body.error.code).toBe('VALIDATION_FAILED');
    expect(noEcho.body.error.message).toMatch(
      /^webhookUrl: the verification request was not answered with the challenge \(HTTP 200 with a different body\)/,
    );

    const other = await startCloudReceiver({ appSecret, verifyToken: 'another-token' });
    closers.push(other.close);
    const wrongToken = await t.api.post('/api/webhook/config', { ...body, webhookUrl: other.url });
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.body.error.message).toMatch(/\(HTTP 403\)/);

    const noSecret = await t.api.post('/api/webhook/config', {
      ...body,
      appSecret: undefined,
      webhookUrl: other.url,
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.message).toMatch(/^appSecret: required/);

    const mixed = await t.api.post('/api/webhook/config', { webhookUrl: other.url, appSecret });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toMatch(/^appSecret: /);

    expect((await t.api.get('/api/webhook/config')).body.cloud).toBeNull();
  });

  it('a receiver holding another app secret refuses every delivery (the signature is checked), which ends failed', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const wrong = await startCloudReceiver({ appSecret: 'not-the-secret-we-sign-with', verifyToken });
    closers.push(wrong.close);
    const saved = await t.api.post('/api/webhook/config', {
      format: 'cloud',
      webhookUrl: wrong.url,
      appSecret,
      verifyToken,
      approvedDomains: '127.0.0.1',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = await simInbound({ sessionId: s.sessionId, from: '919811700009', text: 'forged?' });
    const failed = await waitFor(
      async () => {
        const r = await t.api.get('/api/webhook/deliveries?status=failed');
        return (r.body.deliveries as Array<{ event: string; lastStatusCode: number; payload: any }>).find(
          (d) => d.payload.entry[0].changes[0].value.messages[0].id === `wamid.${id}`,
        );
      },
      15_000,
      'the failed delivery',
    );
    expect(failed).toMatchObject({ event: 'cloud.message.inbound', lastStatusCode: 401 });
    expect(wrong.messages).toEqual([]);
    expect(wrong.answers).toContain(401);
  });
});
