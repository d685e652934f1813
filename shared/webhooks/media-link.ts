import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '../aws/clients.ts';
import { names } from '../aws/names.ts';

/** SigV4 presigned URLs live at most 7 days. */
const LINK_TTL_SECONDS = 7 * 86_400;

/** A URL receivers can fetch the stored media from: the message's own URL, else a presigned S3 link. */
export async function mediaLink(m: { mediaUrl?: string; mediaKey?: string }): Promise<string | null> {
  if (m.mediaUrl) return m.mediaUrl;
  if (!m.mediaKey) return null;
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: names.mediaBucket(), Key: m.mediaKey }), {
    expiresIn: LINK_TTL_SECONDS,
  });
}
