import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { resetEnvCache } from '#shared/config/env';
import { fetchMedia } from '../../connection-host/media.ts';
import { withOwnMedia } from '../../functions/api/messages/own-media.ts';

/**
 * Default local mode: private targets refused. The upload's presigned URL points at the local S3 on
 * the loopback address, which the outbound guard rightly refuses; the host must read the upload by
 * its key instead (before this, every upload-send of local mode ended `failed`).
 */
describe('the host reads an upload-send file in default local mode', () => {
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  beforeAll(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    resetEnvCache();
  });
  afterAll(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = saved;
    resetEnvCache();
  });

  it('by its key, with the bytes and type stored, while the same URL from a caller stays refused', async () => {
    const Bucket = names.mediaBucket();
    const Key = `uploads/tnt_local/${randomBytes(8).toString('hex')}`;
    const bytes = randomBytes(300_000);
    await s3Client().send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: 'application/pdf' }));
    const url = await getSignedUrl(s3Client(), new GetObjectCommand({ Bucket, Key }), { expiresIn: 600 });
    expect(new URL(url).hostname).toMatch(/^(127\.0\.0\.1|localhost)$/);

    const media = await fetchMedia({ kind: 'pdf', mediaUrl: url, uploadKey: Key });
    expect(Buffer.from(media.bytes).equals(bytes)).toBe(true);
    expect(media.mimetype).toBe('application/pdf');

    // A URL a caller gives is still fetched through the guard, which refuses the loopback address.
    await expect(fetchMedia({ kind: 'pdf', mediaUrl: url })).rejects.toThrow(/loopback|not allowed|refused/i);
  });

  it('a file of POST /api/media/uploads sent by its media URL: the API names its key, the host reads it by key', async () => {
    const Bucket = names.mediaBucket();
    const Key = `uploads/tnt_own/large-${randomBytes(8).toString('hex')}`;
    const bytes = randomBytes(100_000);
    await s3Client().send(new PutObjectCommand({ Bucket, Key, Body: bytes, ContentType: 'video/mp4' }));
    const url = await getSignedUrl(s3Client(), new GetObjectCommand({ Bucket, Key }), { expiresIn: 600 });

    const content = await withOwnMedia({ kind: 'document', mediaUrl: url }, 'tnt_own');
    expect(content.storedKey).toBe(Key);
    // Another tenant's file by the same URL is fetched as any URL (and refused here: loopback).
    expect((await withOwnMedia({ kind: 'document', mediaUrl: url }, 'tnt_other')).storedKey).toBeUndefined();

    const media = await fetchMedia(content);
    expect(Buffer.from(media.bytes).equals(bytes)).toBe(true);
  });
});
