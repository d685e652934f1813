import { beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  expectInvalid,
  expectNotFound,
  session,
  type Tenant,
  twoTenantsAndASession,
} from '../../support/in-process.ts';

/** /api/sessions in-process (functions/api/sessions/): status, shape, validation, tenant scope. */
describe('sessions routes', () => {
  let a: Tenant;
  let b: Tenant;
  let sessionId: string;
  beforeAll(async () => {
    ({ a, b, sessionId } = await twoTenantsAndASession('sessions', 'front desk'));
  });

  it('refuses a caller without a token', async () => {
    const r = await caller().get('/api/sessions');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });

  it('creates, lists and reads a session in the Session shape', async () => {
    const list = await a.api.get('/api/sessions');
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toContain(sessionId);
    const one = await a.api.get(`/api/sessions/${sessionId}`);
    expect(one.status).toBe(200);
    expect(one.body.session).toMatchObject({ sessionId, name: 'front desk', method: 'qr' });
    expect(typeof one.body.session.status).toBe('string');
    expect(typeof one.body.session.createdAt).toBe('string');
  });

  it('names the field of a bad body, never a 500', async () => {
    expectInvalid(await a.api.post('/api/sessions', { method: 'fax' }), 'method');
    expectInvalid(await a.api.post('/api/sessions', { method: 'phone' }), 'phoneNumber');
    expectInvalid(await a.api.post('/api/sessions', { name: 'x'.repeat(101) }), 'name');
    const malformed = await a.api.post('/api/sessions', '{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    expectInvalid(await a.api.post('/api/sessions/pin', { sessionId, pin: true }), 'chatId');
    expectInvalid(await a.api.post('/api/sessions/presence', {}), 'sessionId');
  });

  it("answers 404 for another tenant's session on every route that takes one", async () => {
    expectNotFound(await b.api.get(`/api/sessions/${sessionId}`));
    expectNotFound(await b.api.get(`/api/sessions/${sessionId}/qr`));
    expectNotFound(await b.api.post(`/api/sessions/${sessionId}/reconnect`));
    expectNotFound(await b.api.delete(`/api/sessions/${sessionId}`));
    expectNotFound(await b.api.post('/api/sessions/pin', { sessionId, chatId: '15550001111', pin: true }));
    expect((await b.api.get('/api/sessions')).body.sessions).toEqual([]);
    // Still there for its owner.
    expect((await a.api.get(`/api/sessions/${sessionId}`)).status).toBe(200);
  });

  it('deletes its own session: kept as inactive, and deleting again is the same answer', async () => {
    const own = await session(a.api, 'short-lived');
    const del = await a.api.delete(`/api/sessions/${own}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, message: expect.stringContaining(own) });
    expect((await a.api.get(`/api/sessions/${own}`)).body.session.dbStatus).toBe('inactive');
    expect((await a.api.delete(`/api/sessions/${own}`)).status).toBe(200);
  });
});
