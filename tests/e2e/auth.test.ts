import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { adminSubject } from '../../shared/auth/credentials.ts';
import { adminToken, api, newTenant } from '../support/client.ts';
import { must } from '../support/must.ts';

const secret = () => new TextEncoder().encode(inject('serviceEnv').JWT_SECRET);

const claims = { tenant: 'admin', scope: 'admin' };
// Admin tokens name the admin key they were minted from (shared/auth/credentials.ts).
const signed = (
  alg = 'HS256',
  sub = must(adminSubject(inject('adminApiKey')), "adminSubject(inject('adminApiKey'))"),
) => new SignJWT(claims).setProtectedHeader({ alg }).setSubject(sub).setIssuer('wsm').setAudience('wsm-api');

describe('token issuance', () => {
  it('exchanges the admin key (body or X-Api-Key header) for a JWT', async () => {
    const body = await api().post('/api/auth/token', { apiKey: inject('adminApiKey') });
    expect(body.status).toBe(200);
    expect(body.body).toEqual({ success: true, token: expect.any(String), expiresIn: expect.any(Number) });
    const header = await api().post('/api/auth/token', undefined, { 'x-api-key': inject('adminApiKey') });
    expect(header.status).toBe(200);
    const portal = await api(body.body.token).get('/api/portal');
    expect(portal.body.portal_id).toMatch(/^prt_[0-9a-f]+$/);
  });

  it('refuses an unknown key and a missing key with 401', async () => {
    const bad = await api().post('/api/auth/token', { apiKey: 'wsm_nope' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: expect.any(String) },
    });
    expect((await api().post('/api/auth/token', {})).status).toBe(401);
  });

  it('issues tenant tokens for tenant API keys, which cannot use admin paths', async () => {
    const t = await newTenant();
    const r = await t.api.post('/api/admin/tenants', { name: 'sneaky' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('FORBIDDEN');
    const more = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/keys`, { label: 'ci' });
    expect(more.status).toBe(201);
    expect(more.body.apiKey).toMatch(/^wsm_/);
    const tok = await api().post('/api/auth/token', { apiKey: more.body.apiKey });
    expect(tok.status).toBe(200);
    expect((await api(tok.body.token).get('/api/portal')).body.portal_id).toBe(t.portalId);
  });
});

describe('token rejection', () => {
  const rejects = async (token: string) => {
    const r = await api(token).get('/api/sessions');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  };

  it('rejects an expired token', async () => {
    await rejects(await signed().setIssuedAt(1_600_000_000).setExpirationTime(1_600_000_060).sign(secret()));
  });

  it('rejects alg none', async () => {
    await rejects(
      new UnsecuredJWT(claims)
        .setSubject('admin')
        .setIssuer('wsm')
        .setAudience('wsm-api')
        .setExpirationTime('1h')
        .encode(),
    );
  });

  it('rejects an RS256 token (no HS/RS confusion) and an HS512 token', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    await rejects(await signed('RS256').setExpirationTime('1h').sign(privateKey));
    await rejects(await signed('HS512').setExpirationTime('1h').sign(secret()));
  });

  it('rejects a token signed with another secret, and garbage', async () => {
    await rejects(
      await signed()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(48))),
    );
    await rejects('not-a-jwt');
  });

  it('accepts a well-formed token signed with the service secret (control)', async () => {
    const ok = await api(await signed().setExpirationTime('1h').sign(secret())).get('/api/sessions');
    expect(ok.status).toBe(200);
  });

  it('rejects a well-signed admin token that does not name the current admin key', async () => {
    await rejects(await signed('HS256', 'admin').setExpirationTime('1h').sign(secret()));
    await rejects(
      await signed('HS256', adminSubject('adm_a-previous-admin-key-0000'))
        .setExpirationTime('1h')
        .sign(secret()),
    );
  });
});

describe('error shape', () => {
  it('400 for malformed JSON and for a schema violation naming the field', async () => {
    const t = await newTenant();
    const malformed = await t.api.post('/api/sessions', '{"name": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      success: false,
      error: { code: 'MALFORMED_JSON', message: expect.any(String) },
    });
    const invalid = await t.api.post('/api/sessions', { name: 42 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    expect(invalid.body.error.message).toMatch(/^name/);
  });

  it('401 without credentials, 404 for an unknown route, 413 for a body over 1 MiB', async () => {
    const none = await api().get('/api/sessions');
    expect(none.status).toBe(401);
    expect(none.body.success).toBe(false);
    const t = await newTenant();
    const missing = await t.api.get('/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const big = await t.api.post('/api/sessions', { name: 'x'.repeat(1024 * 1024 + 10) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('carries a request id on every answer', async () => {
    const r = await api().get('/health');
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('meta', () => {
  it('/health reports each dependency', async () => {
    const r = await api().get('/health');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(Object.keys(r.body.checks).sort()).toEqual(['dynamodb', 's3', 'secrets', 'sqs']);
    for (const c of Object.values(r.body.checks) as Array<{ ok: boolean }>) expect(c.ok).toBe(true);
  });

  it('/openapi.json documents the routes and /docs renders it', async () => {
    const doc = await api().get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/token', '/api/sessions', '/health']),
    );
    const docs = await fetch(`${inject('baseUrl')}/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain('/openapi.json');
    // Served from the installed package: the page works with no internet.
    expect(html).toContain('src="/docs/assets/swagger-ui-bundle.js"');
    const js = await fetch(`${inject('baseUrl')}/docs/assets/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${inject('baseUrl')}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});
