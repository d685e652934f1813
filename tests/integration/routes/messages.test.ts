import { beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  expectNotFound,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/**
 * /api/messages in-process (functions/api/messages/). Sends go through a connection host, so here
 * only what the API decides itself: validation, tenant scope, and the refusal of a sender that is
 * not READY (the e2e tests cover delivery).
 */
describe('messages routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('messages'));
  });

  it('refuses a caller without a token', async () => {
    expect(
      (await caller().post('/api/messages/send', { sessionId, to: '15550001111', message: 'hi' })).status,
    ).toBe(401);
  });

  it('names the bad field of each route, never a 500', async () => {
    expectInvalid(await a.api.post('/api/messages/send', { sessionId, message: 'hi' }), 'to');
    expectInvalid(await a.api.post('/api/messages/send', { to: '15550001111', message: 'hi' }), 'sessionId');
    expectInvalid(
      await a.api.post('/api/messages/send', {
        sessionId,
        to: '15550001111',
        type: 'hologram',
        message: 'hi',
      }),
      'type',
    );
    expectInvalid(
      await a.api.post('/api/messages/reaction', { sessionId, to: '15550001111', emoji: '👍' }),
      'messageId',
    );
    expectInvalid(await a.api.post('/api/messages/read', { sessionId }), 'chatId');
    expectInvalid(await a.api.post('/api/messages/edit', { sessionId, messageId: 'm1' }), 'text');
    expectInvalid(
      await a.api.post('/api/messages/delete', { sessionId, messageId: 'm1', forEveryone: 'yes' }),
      'forEveryone',
    );
    const untyped = await a.api.request('POST', '/api/messages/upload-send', 'x', {
      'content-type': 'application/json',
    });
    expect(untyped.status).toBe(415);
    expect(untyped.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a sender that is not READY with 422', async () => {
    const r = await a.api.post('/api/messages/send', { sessionId, to: '15550001111', message: 'hi' });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error.code).toBe('SESSION_NOT_READY');
  });

  it("answers 404 for another tenant's session and message", async () => {
    expectNotFound(await b.api.post('/api/messages/send', { sessionId, to: '15550001111', message: 'hi' }));
    expectNotFound(
      await b.api.post('/api/messages/reaction', {
        sessionId,
        to: '15550001111',
        messageId: 'm1',
        emoji: '👍',
      }),
    );
    expectNotFound(await b.api.post('/api/messages/read', { sessionId, chatId: '15550001111' }));
    expectNotFound(await b.api.post('/api/messages/edit', { sessionId, messageId: 'm1', text: 'x' }));
    expectNotFound(await b.api.post('/api/messages/delete', { sessionId, messageId: 'm1' }));
    expectNotFound(await b.api.get(`/api/messages/m_nobody/poll?sessionId=${sessionId}`));
  });

  it('answers the Cloud-API send in the Cloud API error shape', async () => {
    const r = await b.api.post(`/api/messages/${sessionId}/messages`, {
      messaging_product: 'whatsapp',
      to: '15550001111',
      type: 'text',
      text: { body: 'hi' },
    });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ message: expect.any(String), code: expect.any(Number) });
    const bad = await a.api.post(`/api/messages/${sessionId}/messages`, { to: '15550001111' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(100);
    expect(bad.body.error.error_data.details).toMatch(/^messaging_product: /);
  });
});
