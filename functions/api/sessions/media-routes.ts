import { GetObjectCommand, NoSuchKey } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { getMessage } from '#shared/messages/repository';
import { must } from '#shared/must';
import { requireSession } from '#shared/sessions/repository';
import { INLINE_MAX } from '../media/cloud-routes.schema.ts';
import { PRESIGN_SECONDS } from '../media/upload.ts';
import { messageMediaRoute } from './media-routes.schema.ts';

/**
 * A received message's stored file, with the caller's token: what the console shows as a preview
 * (its page may load only its own origin, so it fetches the bytes here and shows them from memory).
 */
export function messageMediaRoutes() {
  const r = router();
  r.openapi(messageMediaRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { sessionId, messageId } = c.req.valid('param');
    const session = await requireSession(tenant, sessionId);
    const m = await getMessage(tenant, session.sessionId, messageId);
    if (!m) throw new NotFoundError(`message ${messageId} not found in session ${session.sessionId}`);
    if (!m.mediaKey) throw new NotFoundError(`message ${messageId} has no stored media`);
    const object = new GetObjectCommand({ Bucket: names.mediaBucket(), Key: m.mediaKey });
    try {
      const res = await s3Client().send(object);
      const size = res.ContentLength ?? 0;
      if (size > INLINE_MAX) {
        await res.Body?.transformToWebStream().cancel();
        return c.redirect(await getSignedUrl(s3Client(), object, { expiresIn: PRESIGN_SECONDS }), 302);
      }
      const type = m.mimetype ?? res.ContentType ?? 'application/octet-stream';
      return c.body(must(res.Body, 'the media object body').transformToWebStream(), 200, {
        'content-type': type,
        'content-length': String(size),
        'cache-control': 'private, no-store',
        // A customer's file is never run as a page of this origin, whatever type it claims.
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        ...(type.startsWith('image/') ? {} : { 'content-disposition': 'attachment' }),
      });
    } catch (err) {
      if (err instanceof NoSuchKey) throw new NotFoundError(`the file of message ${messageId} is gone`);
      throw err;
    }
  });
  return r;
}
