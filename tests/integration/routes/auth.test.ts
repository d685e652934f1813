import { describe, expect, it } from 'vitest';
import { caller, expectInvalid, tenant } from '../../support/in-process.ts';

/** /api/auth and /api/portal in-process (functions/api/auth/routes.ts). */
describe('auth routes', () => {
  it('exchanges an API key for a token; refuses a wrong key and names a bad field', async () => {
    const t = await tenant('auth');
    const ok = await caller().post('/api/auth/token', { apiKey: t.apiKey });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      token: expect.any(String),
      expiresIn: expect.any(Number),
    });
    const wrong = await caller().post('/api/auth/token', { apiKey: `${t.apiKey.slice(0, -4)}zzzz` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    expectInvalid(await caller().post('/api/auth/token', { apiKey: 5 }), 'apiKey');
    const malformed = await caller().post('/api/auth/token', 'not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    const untyped = await caller().request('POST', '/api/auth/token', 'x', { 'content-type': 'text/plain' });
    expect(untyped.status).toBe(415);
  });

  it("answers the caller's own portal id and rotates it", async () => {
    const t = await tenant('auth-portal');
    const got = await t.api.get('/api/portal');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ success: true, portal_id: t.portalId });
    const rotated = await t.api.post('/api/portal/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.portal_id).not.toBe(t.portalId);
    expect((await t.api.get('/api/portal')).body.portal_id).toBe(rotated.body.portal_id);
    expect((await caller().get('/api/portal')).status).toBe(401);
  });
});
