import { describe, expect, it } from 'vitest';
import { ownMediaKeyOf } from './own-media.ts';

describe('ownMediaKeyOf', () => {
  const local = { origin: 'http://127.0.0.1:4566', pathPrefix: '/wsm-media/' };
  const cloud = { origin: 'https://wsm-media.s3.ap-south-1.amazonaws.com', pathPrefix: '/' };

  it('names the key of a file of this tenant in the media bucket, path or virtual-host style', () => {
    expect(
      ownMediaKeyOf(
        'http://127.0.0.1:4566/wsm-media/uploads/tnt_a/large-1f2e?X-Amz-Signature=x',
        'tnt_a',
        local,
      ),
    ).toBe('uploads/tnt_a/large-1f2e');
    expect(
      ownMediaKeyOf('https://wsm-media.s3.ap-south-1.amazonaws.com/uploads/tnt_a/3EB0AB', 'tnt_a', cloud),
    ).toBe('uploads/tnt_a/3EB0AB');
    expect(
      ownMediaKeyOf('http://127.0.0.1:4566/wsm-media/cloud-media/tnt_a/482913000123456?X=1', 'tnt_a', local),
    ).toBe('cloud-media/tnt_a/482913000123456');
  });

  it('is undefined for another tenant’s file, another prefix, another bucket or host, or odd keys', () => {
    for (const url of [
      'http://127.0.0.1:4566/wsm-media/uploads/tnt_b/large-1f2e',
      'http://127.0.0.1:4566/wsm-media/tts/tnt_a/x.ogg',
      'http://127.0.0.1:4566/wsm-media/cloud-media/tnt_b/482913000123456',
      'http://127.0.0.1:4566/wsm-media/cloud-media/tnt_a/482913000123456.json',
      'http://127.0.0.1:4566/other-bucket/uploads/tnt_a/large-1',
      'http://127.0.0.1:4567/wsm-media/uploads/tnt_a/large-1',
      'http://127.0.0.1:4566/wsm-media/uploads/tnt_a/../tnt_b/large-1',
      'http://127.0.0.1:4566/wsm-media/uploads/tnt_a%2F..%2Ftnt_b/x',
      'not a url',
    ]) {
      expect(ownMediaKeyOf(url, 'tnt_a', local), url).toBeUndefined();
    }
  });
});
