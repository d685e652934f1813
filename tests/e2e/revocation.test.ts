import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashApiKey } from '../../shared/auth/api-keys.ts';
import { apiKeyKey } from '../../shared/store/keys.ts';
import { dataTable } from '../../shared/store/tables.ts';
import { adminToken, api, baseUrl, newTenant, waitFor } from '../support/client.ts';
import { jsonClient } from '../support/http.ts';
import { must } from '../support/must.ts';
import { spawnApi, stopProcess } from '../support/processes.ts';

const randomLoopback = () => `127.${[1, 2, 3].map(() => 1 + Math.floor(Math.random() * 250)).join('.')}`;
const wrongKey = (prefix = `wsm_${randomBytes(4).toString('hex')}`) =>
  `${prefix}${randomBytes(30).toString('hex')}`;

/**
 * A request from a chosen loopback address (Linux routes all of 127/8 to lo): failed key attempts
 * count per client address, so this file's own failures never come from the 127.0.0.1 every other
 * test shares.
 */
function requestFrom(
  localAddress: string,
  method: string,
  url: string,
  opts: { json?: unknown; headers?: Record<string, string> } = {},
) {
  const target = new URL(url);
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers: Record<string, string | number> = { ...opts.headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise<{ status: number; retryAfter?: string; body: any }>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        localAddress,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({
            status: must(res.statusCode, 'res.statusCode'),
            retryAfter: res.headers['retry-after'],
            body: parsed,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const portalFeed = (portalId: string) => `/api/public/portal/${portalId}/live-messages`;
/** Mints from an address of its own. */
const mint = (apiKey: string, base = baseUrl()) =>
  requestFrom(randomLoopback(), 'POST', `${base}/api/auth/token`, { json: { apiKey } });
const mintFrom = (address: string, apiKey: string) =>
  requestFrom(address, 'POST', `${baseUrl()}/api/auth/token`, { json: { apiKey } });

async function keysOf(tenantId: string) {
  const r = await api(await adminToken()).get(`/api/admin/tenants/${tenantId}/keys`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.keys as Array<{ keyId: string; prefix?: string; status: string; label?: string }>;
}

describe('API keys', () => {
  it('lists keys by prefix only; a revoked key no longer mints and its tokens are refused', async () => {
    const t = await newTenant();
    const [first] = await keysOf(t.id);
    expect(first).toMatchObject({ status: 'active', prefix: t.apiKey.slice(0, 12), label: 'default' });

    const second = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/keys`, { label: 'ci' });
    expect(second.status).toBe(201);
    const secondToken = (await mint(second.body.apiKey)).body.token as string;
    expect((await api(secondToken).get('/api/portal')).status).toBe(200);
    expect((await api().get(`/view/messages/v1?key=${second.body.apiKey}`)).status).toBe(200);

    // Another tenant cannot see or touch the key.
    const other = await newTenant();
    expect((await other.api.delete(`/api/keys/${second.body.keyId}`)).status).toBe(404);

    const revoked = await t.api.delete(`/api/keys/${second.body.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ keyId: second.body.keyId, status: 'revoked' });
    const refused = await api(secondToken).get('/api/portal');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
    expect((await mint(second.body.apiKey)).status).toBe(401);
    const byKey = await requestFrom(
      randomLoopback(),
      'GET',
      `${baseUrl()}/view/messages/v1?key=${second.body.apiKey}`,
    );
    expect(byKey.status).toBe(401);
    // Revoking again changes nothing; the tenant's other key and token are untouched.
    expect((await t.api.delete(`/api/keys/${second.body.keyId}`)).status).toBe(200);
    expect((await t.api.get('/api/portal')).status).toBe(200);

    const listed = await t.api.get('/api/keys');
    expect(listed.body.keys.map((k: { status: string }) => k.status)).toEqual(['active', 'revoked']);
    expect(JSON.stringify(listed.body)).not.toContain(t.apiKey);
    expect((await t.api.delete('/api/keys/not-a-key-id')).status).toBe(400);
  });

  it('a tenant rotates its own key by presenting it; a token alone cannot make a key', async () => {
    const t = await newTenant();
    expect((await t.api.post('/api/keys/rotate')).status).toBe(401);
    expect((await t.api.post('/api/keys', { label: 'mine' })).status).toBe(404);
    const rotated = await api().post('/api/keys/rotate', undefined, { 'x-api-key': t.apiKey });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ apiKey: expect.stringMatching(/^wsm_/), keyId: expect.any(String) });
    expect((await t.api.get('/api/portal')).status).toBe(401);
    expect((await mint(t.apiKey)).status).toBe(401);
    const again = await requestFrom(randomLoopback(), 'POST', `${baseUrl()}/api/keys/rotate`, {
      json: { apiKey: t.apiKey },
    });
    expect(again.status).toBe(401);
    const fresh = await mint(rotated.body.apiKey);
    expect((await api(fresh.body.token).get('/api/keys')).body.keys).toEqual([
      expect.objectContaining({ keyId: rotated.body.replaced, status: 'revoked', label: 'default' }),
      expect.objectContaining({ keyId: rotated.body.keyId, status: 'active', label: 'default' }),
    ]);
  });

  it('lists a key made before listings existed from its first use on', async () => {
    const t = await newTenant();
    const apiKey = `wsm_${randomBytes(32).toString('hex')}`;
    const keyId = `key_${randomBytes(8).toString('hex')}`;
    // The item as createApiKey wrote it before keys were listed: no index entry, no prefix.
    const { tenantId, scope, createdAt } = {
      tenantId: t.id,
      scope: 'tenant',
      createdAt: new Date().toISOString(),
    };
    await dataTable.put({
      ...apiKeyKey(hashApiKey(apiKey)),
      type: 'apikey',
      keyId,
      tenantId,
      scope,
      createdAt,
    });
    expect((await keysOf(t.id)).map((k) => k.keyId)).not.toContain(keyId);
    expect((await mint(apiKey)).status).toBe(200);
    const listed = await waitFor(async () => (await keysOf(t.id)).find((k) => k.keyId === keyId));
    expect(listed).toMatchObject({ status: 'active', prefix: apiKey.slice(0, 12) });
    expect((await t.api.delete(`/api/keys/${keyId}`)).status).toBe(200);
    expect((await mint(apiKey)).status).toBe(401);
  });

  it('rotating a key: the old key and its tokens are refused, the new one works at once', async () => {
    const t = await newTenant();
    const old = must((await keysOf(t.id))[0], 'the first key of the tenant');
    const rotated = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/keys/${old.keyId}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({
      apiKey: expect.stringMatching(/^wsm_/),
      replaced: old.keyId,
    });
    expect((await t.api.get('/api/sessions')).status).toBe(401);
    expect((await mint(t.apiKey)).status).toBe(401);
    const fresh = await mint(rotated.body.apiKey);
    expect(fresh.status).toBe(200);
    expect((await api(fresh.body.token).get('/api/portal')).body.portal_id).toBe(t.portalId);
    const keys = await keysOf(t.id);
    expect(keys.find((k) => k.keyId === rotated.body.keyId)).toMatchObject({
      status: 'active',
      label: 'default',
    });
    // A revoked key cannot be rotated.
    const again = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/keys/${old.keyId}/rotate`);
    expect(again.status).toBe(409);
  });
});

describe('tenants and portal ids', () => {
  it('disabling a tenant refuses its tokens, keys and portal at once; re-enabling restores them', async () => {
    const t = await newTenant();
    const admin = api(await adminToken());
    expect((await api().get(portalFeed(t.portalId))).status).toBe(200);

    const disabled = await admin.post(`/api/admin/tenants/${t.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.tenant).toMatchObject({ id: t.id, disabled: true });
    const refused = await t.api.get('/api/sessions');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('TENANT_DISABLED');
    expect((await mint(t.apiKey)).status).toBe(403);
    expect((await api().get(portalFeed(t.portalId))).status).toBe(404);

    expect((await admin.post(`/api/admin/tenants/${t.id}/enable`)).body.tenant.disabled).toBe(false);
    expect((await t.api.get('/api/sessions')).status).toBe(200);
    expect((await mint(t.apiKey)).status).toBe(200);
    expect((await api().get(portalFeed(t.portalId))).status).toBe(200);

    expect((await admin.post('/api/admin/tenants/admin/disable')).status).toBe(409);
    expect((await admin.post('/api/admin/tenants/tnt_nosuchtenant/disable')).status).toBe(404);
    expect((await t.api.post(`/api/admin/tenants/${t.id}/enable`)).status).toBe(403);
  });

  it('rotating a portal id: the old portal URL answers 404, the new one works', async () => {
    const t = await newTenant();
    const rotated = await t.api.post('/api/portal/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.portal_id).toMatch(/^prt_[0-9a-f]{24}$/);
    expect(rotated.body.portal_id).not.toBe(t.portalId);
    expect((await api().get(portalFeed(t.portalId))).status).toBe(404);
    expect((await api().get(portalFeed(rotated.body.portal_id))).status).toBe(200);
    expect((await t.api.get('/api/portal')).body.portal_id).toBe(rotated.body.portal_id);

    const byAdmin = await api(await adminToken()).post(`/api/admin/tenants/${t.id}/portal/rotate`);
    expect(byAdmin.status).toBe(200);
    expect((await api().get(portalFeed(rotated.body.portal_id))).status).toBe(404);
    expect((await api().get(portalFeed(byAdmin.body.tenant.portal_id))).status).toBe(200);
  });
});

describe('another process: a rotated admin key, and the revocation bound', () => {
  const newAdminKey = `adm_${randomBytes(24).toString('hex')}`;
  let other: Awaited<ReturnType<typeof spawnApi>>;
  beforeAll(async () => {
    // Same tables and signing key as the running service, another admin key: the service after an
    // admin-key rotation (docs/api.md, "Revocation and throttling").
    other = await spawnApi({ ADMIN_API_KEY: newAdminKey });
  });
  afterAll(async () => {
    if (other) await stopProcess(other.proc);
  });

  it('refuses the old admin key and the tokens it minted; the new key works', async () => {
    const oldToken = await adminToken();
    const refused = await jsonClient(other.baseUrl, oldToken).post('/api/admin/tenants', { name: 'after' });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/admin key/);
    expect((await mint(inject('adminApiKey'), other.baseUrl)).status).toBe(401);

    const fresh = await mint(newAdminKey, other.baseUrl);
    expect(fresh.status).toBe(200);
    expect(
      (await jsonClient(other.baseUrl, fresh.body.token).post('/api/admin/tenants', { name: 'after' }))
        .status,
    ).toBe(201);
    // Each key's tokens name it: the service still on the old key refuses the new key's token.
    expect((await api(fresh.body.token).post('/api/admin/tenants', { name: 'x' })).status).toBe(401);
  });

  it('a key revoked in one process is refused by another within the documented 10 s', async () => {
    const t = await newTenant();
    const there = jsonClient(other.baseUrl, t.token);
    expect((await there.get('/api/portal')).status).toBe(200);
    const [key] = await keysOf(t.id);
    const revokedAt = Date.now();
    expect((await t.api.delete(`/api/keys/${must(key, 'key').keyId}`)).status).toBe(200);
    await waitFor(async () => (await there.get('/api/portal')).status === 401, 12_000, 'refusal elsewhere');
    expect(Date.now() - revokedAt).toBeLessThan(11_000);
  });
});

describe('throttling /api/auth/token', () => {
  // The counters are fixed 60 s windows: start with enough of the current one left.
  beforeAll(async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 100));
  });

  it('answers 429 with Retry-After after 10 wrong keys from one address, even for a right key', async () => {
    const t = await newTenant();
    const address = randomLoopback();
    for (let i = 0; i < 10; i++) expect((await mintFrom(address, wrongKey())).status).toBe(401);
    const limited = await mintFrom(address, wrongKey());
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    expect((await mintFrom(address, t.apiKey)).status).toBe(429);
    // Other addresses are not affected.
    expect((await mintFrom(randomLoopback(), t.apiKey)).status).toBe(200);
  });

  it('answers 429 after 10 wrong keys with one prefix, from however many addresses', async () => {
    const prefix = `wsm_${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 10; i++)
      expect((await mintFrom(randomLoopback(), wrongKey(prefix))).status).toBe(401);
    const limited = await mintFrom(randomLoopback(), wrongKey(prefix));
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    // Another prefix from a fresh address is not affected.
    expect((await mintFrom(randomLoopback(), wrongKey())).status).toBe(401);
  });
});
