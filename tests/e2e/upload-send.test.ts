import { request } from 'node:http';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { baseUrl, newTenant, readySession, waitFor } from '../support/client.ts';
import { fixtures, type MediaFile } from '../support/media-server.ts';
import { outboxWith } from '../support/outbox.ts';

async function upload(
  token: string,
  path: string,
  fields: Record<string, string>,
  file?: { data: MediaFile | Buffer; name?: string; type?: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) {
    const bytes = Buffer.isBuffer(file.data) ? file.data : file.data.bytes;
    form.append('file', new Blob([bytes], { type: file.type ?? '' }), file.name ?? 'blob');
  }
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: names.mediaBucket(), Key: key }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw err;
  }
}

/**
 * Announces a multipart body of `fileBytes` and waits for the answer before sending it: the service
 * judges the declared length and answers 413 at once. (Streaming 64 MiB first races with the server
 * closing the connection, which can swallow the answer.) The body follows only if no answer comes.
 */
function postOversized(
  path: string,
  token: string,
  fileBytes: number,
): Promise<{ status: number; body: any }> {
  const boundary = 'x-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + fileBytes + tail.length,
      },
    });
    const fallback = setTimeout(() => {
      req.write(head);
      req.write(Buffer.alloc(fileBytes));
      req.end(tail);
    }, 5_000);
    req.on('response', (res) => {
      clearTimeout(fallback);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EPIPE' && code !== 'ECONNRESET') reject(err);
    });
    req.flushHeaders();
  });
}

describe('upload and send', () => {
  it('stores the file, sends it as the detected type, then deletes it', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const photo = fixtures.png();
    const brochure = fixtures.pdf();
    const csv = fixtures.text();

    // Standard path: sender in the form, type detected from the bytes (the part claims nothing).
    const r1 = await upload(
      t.token,
      '/api/messages/upload-send',
      { sessionId: s.mobid, to: '+91 98765 43210', caption: 'Fresh stock' },
      { data: photo, name: 'stock.png' },
    );
    expect(r1.status, JSON.stringify(r1.body)).toBe(202);
    expect(r1.body).toEqual({
      success: true,
      messageId: expect.stringMatching(/^3EB0[0-9A-F]{16}$/),
      status: 'queued',
      sessionId: s.sessionId,
      to: '919876543210',
    });
    const key1 = `uploads/${t.id}/${r1.body.messageId}`;
    expect(await objectExists(key1)).toBe(true);

    // Path form: sender in the URL; a PDF with its file name; then a CSV sent as an explicit document.
    const r2 = await upload(
      t.token,
      `/api/messages/${s.mobile_number}/upload-send`,
      { to: '919876543210', fileName: 'Price list.pdf' },
      { data: brochure, name: 'upload.bin', type: 'application/octet-stream' },
    );
    expect(r2.status, JSON.stringify(r2.body)).toBe(202);
    const r3 = await upload(
      t.token,
      '/api/messages/upload-send',
      { phoneNumberId: s.sessionId, to: '919876543210', type: 'document' },
      { data: csv, name: 'leads.csv', type: 'text/csv' },
    );
    expect(r3.status, JSON.stringify(r3.body)).toBe(202);

    const out = await outboxWith(s.sessionId, 3);
    expect(out.map((m) => m.id)).toEqual([r1.body.messageId, r2.body.messageId, r3.body.messageId]);
    expect(out[0]).toMatchObject({
      type: 'image',
      caption: 'Fresh stock',
      sha256: photo.sha256,
      to: '919876543210',
    });
    expect(out[1]).toMatchObject({
      type: 'document',
      mimetype: 'application/pdf',
      fileName: 'Price list.pdf',
      sha256: brochure.sha256,
    });
    expect(out[2]).toMatchObject({
      type: 'document',
      fileName: 'leads.csv',
      mimetype: 'text/csv',
      sha256: csv.sha256,
    });

    // The host deletes each upload 5 s after sending it.
    await waitFor(async () => !(await objectExists(key1)), 15_000, `deletion of ${key1}`);
    const key3 = `uploads/${t.id}/${r3.body.messageId}`;
    await waitFor(async () => !(await objectExists(key3)), 15_000, `deletion of ${key3}`);
  });

  it('validates the form and the file', async () => {
    const t = await newTenant();
    const s = await readySession(t.api);
    const photo = fixtures.png();
    const path = '/api/messages/upload-send';

    const noFile = await upload(t.token, path, { sessionId: s.mobid, to: '919876543210' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.message).toMatch(/^file:/);

    const noSender = await upload(t.token, path, { to: '919876543210' }, { data: photo });
    expect(noSender.status).toBe(400);
    expect(noSender.body.error.message).toMatch(/^sessionId:/);

    const noTo = await upload(t.token, path, { sessionId: s.mobid }, { data: photo });
    expect(noTo.status).toBe(400);
    expect(noTo.body.error.message).toMatch(/^to:/);

    const mismatch = await upload(
      t.token,
      path,
      { sessionId: s.mobid, to: '919876543210', type: 'video' },
      { data: photo },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toMatch(/^type: the file is image\/png/);

    const empty = await upload(
      t.token,
      path,
      { sessionId: s.mobid, to: '919876543210', type: 'document' },
      { data: Buffer.alloc(0) },
    );
    expect(empty.status).toBe(400);

    // The network takes images up to 16 MiB.
    const big = await upload(
      t.token,
      path,
      { sessionId: s.mobid, to: '919876543210' },
      { data: fixtures.bigPng(17 * 1024 * 1024) },
    );
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const unknown = await upload(
      t.token,
      path,
      { sessionId: '111111111111111', to: '919876543210' },
      { data: photo },
    );
    expect(unknown.status).toBe(404);

    // Nothing was sent or counted.
    expect((await t.api.get(`/api/sessions/usage/${s.mobid}`)).body.usage).toBe(0);
  });

  it('refuses bodies over 64 MiB with 413', async () => {
    const t = await newTenant();
    const r = await postOversized('/api/messages/upload-send', t.token, 64 * 1024 * 1024 + 1024);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
