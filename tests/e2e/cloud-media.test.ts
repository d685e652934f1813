import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Document, Image } from 'whatsapp-api-js/messages';
import { api, baseUrl, newTenant, readySession } from '../support/client.ts';
import { cloudClient } from '../support/cloud-client.ts';
import { fixtures } from '../support/media-server.ts';
import { outboxWith } from '../support/outbox.ts';

const form = (bytes: Buffer, type: string, name: string) => {
  const f = new FormData();
  f.append('file', new Blob([bytes], { type }), name);
  return f;
};

const sha256 = (b: ArrayBuffer) => createHash('sha256').update(Buffer.from(b)).digest('hex');

describe('Cloud API media', () => {
  it('uploads, describes, serves, sends by id (more than once) and deletes a file, tenant-scoped', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = cloudClient(t.token);
    const photo = fixtures.png(40);

    const uploaded = await client.uploadMedia(s.mobid, form(photo.bytes, 'image/png', 'photo.png'));
    expect(uploaded).toEqual({ id: expect.stringMatching(/^\d{15}$/) });
    const id = (uploaded as { id: string }).id;

    const info = await client.retrieveMedia(id);
    expect(info).toEqual({
      messaging_product: 'whatsapp',
      url: `${new URL(baseUrl()).origin}/api/media/${id}/content`,
      mime_type: 'image/png',
      sha256: photo.sha256,
      file_size: photo.bytes.length,
      id,
    });
    const bytes = await client.fetchMedia((info as { url: string }).url);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(sha256(await bytes.arrayBuffer())).toBe(photo.sha256);
    // The URL serves the bytes only to the same credentials.
    expect((await fetch((info as { url: string }).url)).status).toBe(401);

    const first = await client.sendMessage(s.mobid, '919876543210', new Image(id, true, 'By id'));
    const again = await client.sendMessage(s.mobid, '919876543211', new Image(id, true));
    for (const r of [first, again])
      expect(r).toMatchObject({ messages: [{ id: expect.stringMatching(/^wamid\./) }] });
    const out = await outboxWith(s.sessionId, 2);
    expect(out[0]).toMatchObject({
      type: 'image',
      caption: 'By id',
      sha256: photo.sha256,
      to: '919876543210',
    });
    expect(out[1]).toMatchObject({ type: 'image', sha256: photo.sha256, to: '919876543211' });

    // Another tenant's token: the id does not exist for it, by any route.
    const other = await newTenant('other');
    const os = await readySession(other.api);
    const theirs = api(other.token);
    for (const r of [
      await theirs.get(`/api/media/${id}`),
      await theirs.get(`/api/media/${id}/content`),
      await theirs.delete(`/api/media/${id}`),
      await theirs.post(`/api/messages/${os.mobid}/messages`, {
        messaging_product: 'whatsapp',
        to: '919876543210',
        type: 'image',
        image: { id },
      }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
    }

    expect(await client.deleteMedia(id)).toEqual({ success: true });
    const gone = await t.api.get(`/api/media/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.error_data.details).toBe(`media ${id} not found`);
  });

  it('sends a document by id under its uploaded name, and refuses bad uploads in the Cloud shape', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const client = cloudClient(t.token);
    const pdf = fixtures.pdf(4096);

    const { id } = (await client.uploadMedia(s.mobid, form(pdf.bytes, 'application/pdf', 'invoice.pdf'))) as {
      id: string;
    };
    await client.sendMessage(s.mobid, '919876543210', new Document(id, true, 'Your invoice'));
    const [doc] = await outboxWith(s.sessionId, 1);
    expect(doc).toMatchObject({
      type: 'document',
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
      sha256: pdf.sha256,
      caption: 'Your invoice',
    });

    // A media header by id is resolved too: the tenant's id is sent, an unknown one is a 404.
    const header = (mediaId: string) =>
      t.api.post(`/api/messages/${s.mobid}/messages`, {
        messaging_product: 'whatsapp',
        to: '919876543210',
        type: 'interactive',
        interactive: {
          type: 'button',
          header: { type: 'document', document: { id: mediaId } },
          body: { text: 'Pay now?' },
          action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] },
        },
      });
    expect((await header(id)).status).toBe(200);
    expect((await header('999')).status).toBe(404);

    const noFile = new FormData();
    noFile.append('messaging_product', 'whatsapp');
    const refused = await fetch(`${baseUrl()}/api/messages/${s.mobid}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: noFile,
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(100);

    const unknownSender = await fetch(`${baseUrl()}/api/messages/1234567/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form(pdf.bytes, 'application/pdf', 'x.pdf'),
    });
    expect(unknownSender.status).toBe(404);
    expect(await unknownSender.json()).toMatchObject({ error: { code: 100, error_subcode: 33 } });

    const noToken = await fetch(`${baseUrl()}/api/messages/${s.mobid}/media`, {
      method: 'POST',
      body: form(pdf.bytes, 'application/pdf', 'x.pdf'),
    });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ error: { code: 190 } });
  });
});
