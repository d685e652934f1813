import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { router } from '#shared/http/context';
import { ServiceError } from '#shared/http/errors';
import { MiB } from '#shared/media/limits';
import { objectKey } from '#shared/store/object-keys';
import { requireAuth } from '../auth/middleware.ts';
import { cloudMediaIdRoutes } from './cloud-routes.ts';
import { largeUploadRoute } from './routes.schema.ts';
import { kindOfMimetype, NETWORK_LIMITS, PRESIGN_SECONDS } from './upload.ts';

/**
 * Large files (above the ~6 MB request limit of API Gateway + Lambda): a presigned S3 PUT URL under
 * `uploads/<tenant>/` for the file, and a presigned GET URL to send it by (the host fetches it).
 */
export function mediaRoutes() {
  const r = router();
  r.use('/uploads', requireAuth);
  r.openapi(largeUploadRoute, async (c) => {
    const { contentType, size } = c.req.valid('json');
    const kind = kindOfMimetype(contentType);
    const max = NETWORK_LIMITS[kind];
    if (size > max) {
      throw new ServiceError('PAYLOAD_TOO_LARGE', `size: ${kind} files may be at most ${max / MiB} MiB`);
    }
    const key = objectKey('uploads', c.get('auth').tenant, `large-${randomUUID()}`);
    const Bucket = names.mediaBucket();
    // Content type and length are signed: S3 refuses a PUT with another size or type.
    const uploadUrl = await getSignedUrl(
      s3Client(),
      new PutObjectCommand({ Bucket, Key: key, ContentType: contentType, ContentLength: size }),
      { expiresIn: PRESIGN_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) },
    );
    const mediaUrl = await getSignedUrl(s3Client(), new GetObjectCommand({ Bucket, Key: key }), {
      // Long enough to upload, then send; the lifecycle rule deletes `uploads/` after a day.
      expiresIn: PRESIGN_SECONDS * 2,
    });
    return c.json({ success: true as const, uploadUrl, mediaUrl, key, expiresIn: PRESIGN_SECONDS }, 200);
  });
  r.route('/', cloudMediaIdRoutes());
  return r;
}
