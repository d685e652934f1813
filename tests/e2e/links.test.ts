import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { forgetTenantState } from '#shared/auth/tenant-state';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { linkTo } from '#shared/links/links';
import { newTenant } from '../support/client.ts';
import { must } from '../support/must.ts';

const DAY_MS = 86_400_000;

/** A file of the tenant's in the media bucket. */
async function stored(tenantId: string, body = 'hello from a link') {
  const key = `media/${tenantId}/link-test-${Math.random().toString(36).slice(2)}.txt`;
  await s3Client().send(
    new PutObjectCommand({ Bucket: names.mediaBucket(), Key: key, Body: body, ContentType: 'text/plain' }),
  );
  return key;
}

/** A refused link: 403 JSON, no redirect, nothing of the file. */
async function expectRefused(url: string, reason: string) {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(403);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body: unknown = await res.json();
  expect(body).toEqual({
    success: false,
    error: { code: 'FORBIDDEN', message: expect.stringContaining(reason) },
  });
}

describe('links (GET /links/{token})', () => {
  it('a link redirects to its file for as long as it says, then is refused', async () => {
    const t = await newTenant();
    const key = await stored(t.id);
    const url = await linkTo(t.id, key, 'media');
    expect(url).toMatch(/\/links\/v1\.[\w-]+\.[\w-]+$/);

    const hop = await fetch(url, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('cache-control')).toBe('no-store');
    expect(hop.headers.get('location')).toMatch(/X-Amz-Expires=300/);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('hello from a link');

    // Made 8 days ago, a media link (7 days) has expired; made 6 days ago it still works.
    await expectRefused(await linkTo(t.id, key, 'media', { nowMs: Date.now() - 8 * DAY_MS }), 'expired');
    expect((await fetch(await linkTo(t.id, key, 'media', { nowMs: Date.now() - 6 * DAY_MS }))).status).toBe(
      200,
    );
    // An export link lives 24 hours.
    await expectRefused(await linkTo(t.id, key, 'export', { nowMs: Date.now() - 25 * 3600_000 }), 'expired');
  });

  it('a tampered link is refused, another tenant or key included', async () => {
    const t = await newTenant();
    const other = await newTenant();
    const key = await stored(t.id);
    const otherKey = await stored(other.id, 'not yours');
    const url = await linkTo(t.id, key, 'media');
    const [base, token] = url.split('/links/');
    const [v, payload, sig] = must(token, 'token').split('.');
    const claims = JSON.parse(Buffer.from(must(payload, 'payload'), 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, t: other.id, k: otherKey })).toString('base64url');
    await expectRefused(`${base}/links/${v}.${forged}.${sig}`, 'signature');
    const later = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 365 * 86_400 })).toString(
      'base64url',
    );
    await expectRefused(`${base}/links/${v}.${later}.${sig}`, 'signature');
    await expectRefused(`${base}/links/${v}.${payload}.${must(sig, 'sig').slice(1)}A`, 'signature');
    await expectRefused(`${base}/links/garbage`, 'malformed');
  });

  it('revoking the tenant links refuses every earlier link; new links work', async () => {
    const t = await newTenant();
    const key = await stored(t.id);
    const before = await linkTo(t.id, key, 'qr');
    expect((await fetch(before)).status).toBe(200);

    const revoked = await t.api.post('/api/links/revoke');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, linkEpoch: 1 });
    await expectRefused(before, 'revoked');

    forgetTenantState(t.id); // this worker read the tenant's epoch before the revocation
    const after = await linkTo(t.id, key, 'qr');
    expect((await fetch(after)).status).toBe(200);
    expect((await fetch(`${after.split('/links/')[0]}/api/links/revoke`, { method: 'POST' })).status).toBe(
      401,
    );
  });

  it('a link to a deleted file answers 404 JSON', async () => {
    const t = await newTenant();
    const key = await stored(t.id);
    const url = await linkTo(t.id, key, 'tts');
    await s3Client().send(new DeleteObjectCommand({ Bucket: names.mediaBucket(), Key: key }));
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});
