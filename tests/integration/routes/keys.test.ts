import { describe, expect, it } from 'vitest';
import { caller, expectInvalid, expectNotFound, tenant } from '../../support/in-process.ts';

/** /api/keys in-process (functions/api/keys/): a tenant's own keys only. */
describe('keys routes', () => {
  it('lists, rotates and revokes its own keys; names a bad field', async () => {
    const t = await tenant('keys');
    const list = await t.api.get('/api/keys');
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.keys.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(list.body)).not.toContain(t.apiKey);
    const rotated = await t.api.post('/api/keys/rotate', { apiKey: t.apiKey });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    expect(rotated.body).toMatchObject({
      success: true,
      apiKey: expect.any(String),
      keyId: expect.any(String),
    });
    // The replaced key's tokens are no longer current: the caller signs in with the new key.
    expect((await t.api.get('/api/keys')).status).toBe(401);
    const tok = await caller().post('/api/auth/token', { apiKey: rotated.body.apiKey });
    const api = caller(tok.body.token);
    expectInvalid(await api.post('/api/keys/rotate', { apiKey: 42 }), 'apiKey');
    const revoked = await api.delete(`/api/keys/${rotated.body.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ keyId: rotated.body.keyId, status: 'revoked' });
    expect((await caller().get('/api/keys')).status).toBe(401);
  });

  it("answers 404 for another tenant's key", async () => {
    const [a, b] = await Promise.all([tenant('keys-a'), tenant('keys-b')]);
    const aKeys = await a.api.get('/api/keys');
    const keyId = aKeys.body.keys[0].keyId as string;
    expectNotFound(await b.api.delete(`/api/keys/${keyId}`));
    expect((await b.api.get('/api/keys')).body.keys.map((k: { keyId: string }) => k.keyId)).not.toContain(
      keyId,
    );
    expect((await a.api.get('/api/keys')).body.keys[0].status).not.toBe('revoked');
  });
});
