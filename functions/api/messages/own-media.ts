import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import type { OutboundContent } from '#shared/messages/content';
import { objectPrefixes } from '#shared/store/object-keys';

const uploads = objectPrefixes.uploads.prefix;
const cloudMedia = objectPrefixes.cloudMedia.prefix;

/** Where the media bucket's objects are addressed: origin and path before the key. */
export interface BucketAddress {
  origin: string;
  pathPrefix: string;
}

let address: Promise<BucketAddress> | undefined;

/** The media bucket's address as its own presigned URLs spell it (path or virtual-host style). */
function bucketAddress(): Promise<BucketAddress> {
  address ??= getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: names.mediaBucket(), Key: 'k' })).then(
    (signed) => {
      const u = new URL(signed);
      return { origin: u.origin, pathPrefix: u.pathname.slice(0, -1) };
    },
  );
  return address;
}

/**
 * The key of a media URL that names a file of this tenant in our own media bucket (a presigned URL
 * from `POST /api/media/uploads`, or of a Cloud API media id), or undefined for any other URL. Pure: the bucket's address is given.
 */
export function ownMediaKeyOf(url: string, tenantId: string, bucket: BucketAddress): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.origin !== bucket.origin || !u.pathname.startsWith(bucket.pathPrefix)) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(u.pathname.slice(bucket.pathPrefix.length));
  } catch {
    return undefined;
  }
  return new RegExp(`^(${uploads}${tenantId}/[\\w.-]+|${cloudMedia}${tenantId}/\\d+)$`).test(key)
    ? key
    : undefined;
}

/**
 * The content with `storedKey` set when its media URL is a file of the tenant's own in the media
 * bucket: the host then reads it by key. Its presigned URL points at the S3 endpoint, which in local
 * mode is the loopback address that the outbound guard refuses for any caller's URL.
 */
export async function withOwnMedia(content: OutboundContent, tenantId: string): Promise<OutboundContent> {
  if (!content.mediaUrl || content.uploadKey) return content;
  let bucket: BucketAddress;
  try {
    bucket = await bucketAddress();
  } catch {
    address = undefined; // tried again next time; meanwhile the URL is fetched as any other
    return content;
  }
  const key = ownMediaKeyOf(content.mediaUrl, tenantId, bucket);
  return key ? { ...content, storedKey: key } : content;
}
