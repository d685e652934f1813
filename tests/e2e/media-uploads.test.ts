import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, newTenant, readySession } from '../support/client.ts';
import { must } from '../support/must.ts';
import { outboxWith } from '../support/outbox.ts';

const MiB = 1024 * 1024;

describe('POST /api/media/uploads (large files by presigned S3 PUT)', () => {
  it('a 40 MiB document (over the 11 MiB fauxqs takes by default): presigned PUT, then sent by its media URL with the same bytes', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const bytes = randomBytes(40 * MiB);
    const r = await t.api.post('/api/media/uploads', { contentType: 'application/zip', size: bytes.length });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, expiresIn: 600 });
    expect(r.body.key).toMatch(new RegExp(`^uploads/${t.id}/large-`));

    const put = await fetch(r.body.uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) },
      body: bytes,
    });
    expect(put.status, await put.text()).toBe(200);

    const sent = await t.api.post('/api/messages/send', {
      sessionId: s.sessionId,
      to: '919800000001',
      type: 'document',
      url: r.body.mediaUrl,
      fileName: 'big.zip',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const [msg] = await outboxWith(s.sessionId, 1);
    expect(must(msg, 'msg').fileName).toBe('big.zip');
    expect(must(msg, 'msg').sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 60_000);

  it('refuses a size above the network limit of its kind, bad input, and no token', async () => {
    const t = await newTenant();
    const image = await t.api.post('/api/media/uploads', { contentType: 'image/jpeg', size: 17 * MiB });
    expect(image.status).toBe(413);
    expect(image.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const bad = await t.api.post('/api/media/uploads', { contentType: 'not a type', size: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    const tooBig = await t.api.post('/api/media/uploads', { contentType: 'video/mp4', size: 65 * MiB });
    expect(tooBig.status).toBe(400);
    const anon = await api().post('/api/media/uploads', { contentType: 'video/mp4', size: 10 });
    expect(anon.status).toBe(401);
  });
});
