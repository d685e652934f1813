import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WhatsAppAPI } from 'whatsapp-api-js';
import {
  ActionButtons,
  Body,
  BodyComponent,
  BodyParameter,
  Button,
  Image,
  Interactive,
  Reaction,
  Template,
  Text,
} from 'whatsapp-api-js/messages';
import { api, baseUrl, newTenant, readySession } from '../support/client.ts';
import { fixtures, mediaServer } from '../support/media-server.ts';
import { must } from '../support/must.ts';
import { outboxWith } from '../support/outbox.ts';

const photo = fixtures.png();
let server: Awaited<ReturnType<typeof mediaServer>>;
beforeAll(async () => {
  server = await mediaServer({ 'photo.png': photo });
});
afterAll(() => server.close());

/** The real Cloud API client, its Graph requests pointed at this service. */
function cloudClient(token: string) {
  const redirect: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const path = url.pathname.replace(/^\/v[\d.]+\//, '/');
    return fetch(`${baseUrl()}/api/messages${path}`, init);
  };
  return new WhatsAppAPI({ token, v: 'v21.0', secure: false, ponyfill: { fetch: redirect } });
}

describe('Cloud-API-compatible send', () => {
  it('works with the whatsapp-api-js client for text, image and template', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await t.api.post('/api/templates', { name: 'order_update', body: 'Hi {{1}}, order {{2}} has shipped.' });
    const client = cloudClient(t.token);

    const text = await client.sendMessage(s.mobid, '+91 98765 43210', new Text('Hello from the Cloud API'));
    const image = await client.sendMessage(
      s.mobid,
      '919876543210',
      new Image(server.url('photo.png'), false, 'Look'),
    );
    const template = await client.sendMessage(
      s.mobid,
      '919876543210',
      new Template(
        'order_update',
        'en',
        new BodyComponent(new BodyParameter('Asha'), new BodyParameter('#1042')),
      ),
    );
    for (const r of [text, image, template]) {
      expect(r).toEqual({
        messaging_product: 'whatsapp',
        contacts: [{ input: expect.any(String), wa_id: '919876543210' }],
        messages: [{ id: expect.stringMatching(/^wamid\.3EB0[0-9A-F]{16}$/) }],
      });
    }
    if (!('messages' in text)) throw new Error('unreachable');
    expect(text.contacts[0]?.input).toBe('+91 98765 43210');

    const out = await outboxWith(s.sessionId, 3);
    const ids = [text, image, template].map((r) =>
      'messages' in r ? r.messages[0]?.id.slice('wamid.'.length) : '',
    );
    expect(out.map((m) => m.id)).toEqual(ids);
    expect(out[0]).toMatchObject({ type: 'text', text: 'Hello from the Cloud API' });
    expect(out[1]).toMatchObject({ type: 'image', caption: 'Look', sha256: photo.sha256 });
    expect(out[2]).toMatchObject({ type: 'text', text: 'Hi Asha, order #1042 has shipped.' });

    // The wamid maps back to our id in history.
    const history = await t.api.get(`/view/messages/v1?sessionId=${s.sessionId}&type=outbound`);
    expect(history.body.messages.map((m: { id: string }) => m.id).sort()).toEqual([...ids].sort());

    // Errors reach the client in the Cloud API shape.
    const failed = await client.sendMessage(s.mobid, '919876543210', new Template('missing_template', 'en'));
    expect(failed).toMatchObject({
      error: { code: 132001, type: 'OAuthException', fbtrace_id: expect.any(String) },
    });
  });

  it('sends interactive buttons, replies and reactions, and echoes messaging_product', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = cloudClient(t.token);
    const buttons = await client.sendMessage(
      s.mobile_number,
      '919876543210',
      new Interactive(
        new ActionButtons(new Button('yes', 'Yes'), new Button('no', 'No')),
        new Body('Shall we book?'),
      ),
    );
    const firstId = 'messages' in buttons ? must(buttons.messages[0], 'buttons.messages[0]').id : '';
    expect(firstId).toMatch(/^wamid\./);

    const reply = await t.api.post(`/api/messages/${s.sessionId}/messages`, {
      messaging_product: 'network',
      to: '919876543210',
      type: 'text',
      text: { body: 'Booked.' },
      context: { message_id: firstId },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.messaging_product).toBe('network');

    const reaction = await client.sendMessage(s.mobid, '919876543210', new Reaction(firstId, '👍'));
    expect('messages' in reaction).toBe(true);

    const out = await outboxWith(s.sessionId, 3);
    expect(out[0]).toMatchObject({ type: 'buttons', text: 'Shall we book?' });
    expect(out[1]).toMatchObject({
      type: 'text',
      text: 'Booked.',
      quotedId: firstId.replace(/^wamid\./, ''),
    });
    expect(out[2]).toMatchObject({ type: 'reaction', text: '👍' });
  });

  it('answers errors in the Cloud API error shape', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    await t.api.post('/api/templates', { name: 'two_params', body: '{{1}} and {{2}}' });
    const post = (body: unknown, id = s.mobid) => t.api.post(`/api/messages/${id}/messages`, body);
    const shape = (code: number) => ({
      error: {
        message: expect.stringContaining(`(#${code})`),
        type: 'OAuthException',
        code,
        error_data: { messaging_product: expect.any(String), details: expect.any(String) },
        fbtrace_id: expect.any(String),
      },
    });

    const noTo = await post({ messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } });
    expect(noTo.status).toBe(400);
    expect(noTo.body).toEqual(shape(100));
    expect(noTo.body.error.error_data.details).toMatch(/^to:/);

    const noLink = await post({
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'image',
      image: { caption: 'no media' },
    });
    expect(noLink.status).toBe(400);
    expect(noLink.body.error.error_data.details).toMatch(/^image\.link: image: give either link or id/);

    const unknownMedia = await post({
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'image',
      image: { id: '123' },
    });
    expect(unknownMedia.status).toBe(404);
    expect(unknownMedia.body).toEqual(shape(100));

    const badProduct = await post({ messaging_product: 'sms', to: '919876543210', text: { body: 'x' } });
    expect(badProduct.body).toEqual(shape(100));

    const unknown = await post(
      { messaging_product: 'whatsapp', to: '919876543210', text: { body: 'x' } },
      '1234567',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 100, error_subcode: 33 } });

    const params = await post({
      messaging_product: 'whatsapp',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'two_params',
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }],
      },
    });
    expect(params.status).toBe(400);
    expect(params.body).toEqual(shape(132000));

    const noAuth = await api().post(`/api/messages/${s.mobid}/messages`, {
      messaging_product: 'whatsapp',
      to: '919876543210',
      text: { body: 'x' },
    });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body).toEqual(shape(190));

    const malformed = await api(t.token).post(`/api/messages/${s.mobid}/messages`, '{"to":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(shape(100));

    await t.api.post(`/api/sessions/usage/${s.mobid}`, { limit: 0 });
    const quota = await post({ messaging_product: 'network', to: '919876543210', text: { body: 'x' } });
    expect(quota.status).toBe(429);
    // Meta's spending-limit code, not 131056 (pair rate limit), which clients retry in seconds.
    expect(quota.body).toEqual(shape(131042));
    expect(quota.body.error.error_data.details).toMatch(/quota resets at the start of next month/);
    expect(quota.body.error.error_data.messaging_product).toBe('network');
    expect(Number(quota.headers.get('retry-after'))).toBeGreaterThan(0);

    await t.api.delete(`/api/sessions/${s.sessionId}`);
    const gone = await post({ messaging_product: 'whatsapp', to: '919876543210', text: { body: 'x' } });
    expect(gone.status).toBe(422);
    expect(gone.body).toEqual(shape(133010));
  });
});
