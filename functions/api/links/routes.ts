import { GetObjectCommand, HeadObjectCommand, NotFound } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { checkLink, revokeLinks } from '#shared/links/links';
import { requireAuth } from '../auth/middleware.ts';
import { openRoute, REDIRECT_SECONDS, revokeRoute } from './routes.schema.ts';

/** `GET /links/{token}`: public, the token is the credential. */
export function linkRoutes() {
  const r = router();
  r.openapi(openRoute, async (c) => {
    const { token } = c.req.valid('param');
    const claims = await checkLink(token);
    const Bucket = names.mediaBucket();
    try {
      await s3Client().send(new HeadObjectCommand({ Bucket, Key: claims.key }));
    } catch (err) {
      if (err instanceof NotFound || (err as { name?: string }).name === 'NotFound') {
        throw new NotFoundError('the file of this link no longer exists');
      }
      throw err;
    }
    const location = await getSignedUrl(s3Client(), new GetObjectCommand({ Bucket, Key: claims.key }), {
      expiresIn: REDIRECT_SECONDS,
    });
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.redirect(location, 302);
  });
  return r;
}

/** `POST /api/links/revoke`. */
export function linkAdminRoutes() {
  const r = router();
  r.use('*', requireAuth);
  r.openapi(revokeRoute, async (c) => {
    const linkEpoch = await revokeLinks(c.get('auth').tenant);
    return c.json({ success: true as const, linkEpoch }, 200);
  });
  return r;
}
