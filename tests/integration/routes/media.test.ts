import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { expectInvalid, inProcessApp, tenant, twoTenantsAndASession } from '../../support/in-process.ts';

/** /api/media in-process (functions/api/media/): upload addresses and stored media by id. */
describe('media routes', () => {
  it('answers a presigned upload address in its shape; names a bad field', async () => {
    const t = await tenant('media');
    const r = await t.api.post('/api/media/uploads', { contentType: 'image/png', size: 1024 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      uploadUrl: expect.stringMatching(/^https?:/),
      mediaUrl: expect.any(String),
      key: expect.any(String),
      expiresIn: expect.any(Number),
    });
    expect(r.body.key).toContain(t.id);
    expectInvalid(await t.api.post('/api/media/uploads', { size: 1024 }), 'contentType');
    expectInvalid(await t.api.post('/api/media/uploads', { contentType: 'image/png', size: -1 }), 'size');
  });

  it('answers in the Cloud API shape: 404 for an unknown media id, 400 naming a malformed one', async () => {
    const t = await tenant('media-404');
    for (const r of [
      await t.api.get('/api/media/1234567890123'),
      await t.api.get('/api/media/1234567890123/content'),
      await t.api.delete('/api/media/1234567890123'),
    ]) {
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      expect(r.body.error).toMatchObject({ message: expect.any(String), code: expect.any(Number) });
    }
    const bad = await t.api.get('/api/media/nobody');
    expect(bad.status).toBe(400);
    expect(bad.body.error.error_data.details).toMatch(/^mediaId: /);
  });

  it("keeps an uploaded file to its tenant: another tenant's GET and DELETE are 404", async () => {
    const { a, b, sessionId } = await twoTenantsAndASession('media');
    const png = new PNG({ width: 2, height: 2 });
    const form = new FormData();
    form.append('file', new Blob([PNG.sync.write(png)], { type: 'image/png' }), 'dot.png');
    const app = await inProcessApp();
    const up = await app.request(`/api/messages/${sessionId}/media?messaging_product=whatsapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}` },
      body: form,
    });
    const uploaded = (await up.json()) as { id: string };
    expect(up.status, JSON.stringify(uploaded)).toBe(200);
    expect(uploaded.id).toMatch(/^\d+$/);
    const mine = await a.api.get(`/api/media/${uploaded.id}`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body).toMatchObject({
      id: uploaded.id,
      mime_type: 'image/png',
      messaging_product: 'whatsapp',
    });
    expect((await b.api.get(`/api/media/${uploaded.id}`)).status).toBe(404);
    expect((await b.api.get(`/api/media/${uploaded.id}/content`)).status).toBe(404);
    expect((await b.api.delete(`/api/media/${uploaded.id}`)).status).toBe(404);
    expect((await a.api.get(`/api/media/${uploaded.id}`)).status).toBe(200);
  });
});
