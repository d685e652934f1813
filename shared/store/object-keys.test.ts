import { describe, expect, it } from 'vitest';
import { cloudMediaKeyOf } from '../../functions/api/media/cloud-media.ts';
import { uploadKeyOf } from '../../functions/api/media/upload.ts';
import { ownMediaKeyOf } from '../../functions/api/messages/own-media.ts';
import { buckets } from '../aws/resources.ts';
import { expiringPrefixes, objectKey, objectPrefixes } from './object-keys.ts';

describe('media bucket object keys', () => {
  it('expires in the bucket exactly the prefixes the code writes short-lived objects under', () => {
    expect(buckets.media.expiring).toEqual(expiringPrefixes());
    expect(Object.fromEntries(expiringPrefixes().map((p) => [p.prefix, p.days]))).toEqual({
      'uploads/': 1,
      'cloud-media/': 30,
      'tts/': 1,
      'exports/': 2,
      'payments/': 8,
    });
  });

  it('starts every key with its prefix, then the tenant', () => {
    for (const [kind, { prefix }] of Object.entries(objectPrefixes)) {
      const key = objectKey(kind as keyof typeof objectPrefixes, 't1', 'a', 'b.bin');
      expect(key).toBe(`${prefix}t1/a/b.bin`);
    }
    expect(uploadKeyOf('t1', 'm1')).toBe('uploads/t1/m1');
    expect(cloudMediaKeyOf('t1', '123')).toBe('cloud-media/t1/123');
  });

  it('keeps no prefix inside another, so no rule expires another kind of object', () => {
    const prefixes = Object.values(objectPrefixes).map((p) => p.prefix);
    for (const a of prefixes)
      for (const b of prefixes) if (a !== b) expect(b.startsWith(a), `${a} ${b}`).toBe(false);
  });

  it("recognises the tenant's own uploads and Cloud media by the keys their writers make", () => {
    const bucket = { origin: 'https://s3.example.com', pathPrefix: '/media-bucket/' };
    const url = (key: string) => `${bucket.origin}${bucket.pathPrefix}${key}?X-Amz-Signature=x`;
    expect(ownMediaKeyOf(url(uploadKeyOf('t1', 'msg_1')), 't1', bucket)).toBe('uploads/t1/msg_1');
    expect(ownMediaKeyOf(url(cloudMediaKeyOf('t1', '123')), 't1', bucket)).toBe('cloud-media/t1/123');
    expect(ownMediaKeyOf(url(uploadKeyOf('t2', 'msg_1')), 't1', bucket)).toBeUndefined();
  });
});
