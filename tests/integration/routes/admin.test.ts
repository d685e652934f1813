import { beforeAll, describe, expect, it } from 'vitest';
import { adminCaller, type Caller, expectInvalid, expectNotFound, tenant } from '../../support/in-process.ts';

/** /api/admin in-process (functions/api/admin/): admin scope only, tenants, keys, hosts, exports. */
describe('admin routes', () => {
  let admin: Caller;
  beforeAll(async () => {
    admin = await adminCaller();
  });

  it('refuses a tenant token (403) on every admin route', async () => {
    const t = await tenant('admin-scope');
    for (const [method, path] of [
      ['POST', '/api/admin/tenants'],
      ['GET', `/api/admin/tenants/${t.id}`],
      ['GET', `/api/admin/tenants/${t.id}/keys`],
      ['GET', '/api/admin/hosts'],
      ['POST', '/api/admin/export/contacts'],
    ] as const) {
      const r = await t.api.request(method, path, method === 'POST' ? { name: 'x' } : undefined);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('creates a tenant, reads it, disables and enables it, rotates its portal', async () => {
    const created = await admin.post('/api/admin/tenants', { name: 'acme' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      success: true,
      tenant: { name: 'acme' },
      apiKey: expect.any(String),
    });
    const id = created.body.tenant.id as string;
    const got = await admin.get(`/api/admin/tenants/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.tenant).toMatchObject({ id, name: 'acme', disabled: false });
    expect((await admin.post(`/api/admin/tenants/${id}/disable`)).body.tenant.disabled).toBe(true);
    expect((await admin.post(`/api/admin/tenants/${id}/enable`)).body.tenant.disabled).toBe(false);
    const rotated = await admin.post(`/api/admin/tenants/${id}/portal/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.tenant.portal_id).not.toBe(created.body.tenant.portal_id);
  });

  it('issues, lists, rotates and revokes a tenant key', async () => {
    const t = await tenant('admin-keys');
    const issued = await admin.post(`/api/admin/tenants/${t.id}/keys`, { label: 'ci' });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      success: true,
      apiKey: expect.any(String),
      keyId: expect.any(String),
    });
    const list = await admin.get(`/api/admin/tenants/${t.id}/keys`);
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: { keyId: string }) => k.keyId)).toContain(issued.body.keyId);
    const rotated = await admin.post(`/api/admin/tenants/${t.id}/keys/${issued.body.keyId}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.body.replaced).toBe(issued.body.keyId);
    const revoked = await admin.delete(`/api/admin/tenants/${t.id}/keys/${rotated.body.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ keyId: rotated.body.keyId, status: 'revoked' });
  });

  it('names the bad field and answers 404 for unknown tenants and keys', async () => {
    expectInvalid(await admin.post('/api/admin/tenants', {}), 'name');
    expectInvalid(await admin.post('/api/admin/tenants', { name: 7 }), 'name');
    expectNotFound(await admin.get('/api/admin/tenants/t_nobody'));
    expectNotFound(await admin.post('/api/admin/tenants/t_nobody/disable'));
    const t = await tenant('admin-404');
    const other = await tenant('admin-404-other');
    const key = await admin.post(`/api/admin/tenants/${t.id}/keys`, { label: 'x' });
    // A key exists only under its own tenant.
    expectNotFound(await admin.delete(`/api/admin/tenants/${other.id}/keys/${key.body.keyId}`));
  });

  it('lists the connection hosts', async () => {
    const r = await admin.get('/api/admin/hosts');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, shardCount: expect.any(Number) });
    expect(Array.isArray(r.body.hosts)).toBe(true);
  });

  it("exports a tenant's contacts and groups as JSON; a bad format is named", async () => {
    const t = await tenant('admin-export');
    const contacts = await admin.post(`/api/admin/export/contacts?tenantId=${t.id}&format=json`, {});
    expect(contacts.status, JSON.stringify(contacts.body)).toBe(200);
    expect(contacts.body).toMatchObject({ success: true, totalContacts: 0, contacts: [] });
    const groups = await admin.post(`/api/admin/export/groups?tenantId=${t.id}&format=json`, {});
    expect(groups.status, JSON.stringify(groups.body)).toBe(200);
    expect(groups.body).toMatchObject({ success: true, totalGroups: 0, groups: [] });
    expectInvalid(await admin.post(`/api/admin/export/contacts?tenantId=${t.id}&format=xml`, {}), 'format');
  });
});
