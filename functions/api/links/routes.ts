import { GetObjectCommand, HeadObjectCommand, NotFound } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createRoute, z } from '@hono/zod-openapi';
import { s3Client } from '#shared/aws/clients';
import { names } from '#shared/aws/names';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { checkLink, revokeLinks } from '#shared/links/links';
import { requireAuth } from '../auth/middleware.ts';

/**
 * How long the S3 address a link redirects to works. The client follows the redirect at once; the
 * address is signed with the credentials this function holds now, which outlive it.
 */
export const REDIRECT_SECONDS = 300;

const openRoute = createRoute({
  method: 'get',
  path: '/{token}',
  tags: ['media'],
  summary: 'Follow a link the service handed out (media, payment QR, export, speech): a redirect to the file',
  description:
    'The token is the link itself (no other credential). A valid link answers 302 to a short-lived S3 address of the file; an expired, revoked or altered link answers 403, a file since deleted 404.',
  security: [],
  request: { params: z.object({ token: z.string().min(1).max(4096) }) },
  responses: {
    302: { description: 'The file, at an S3 address valid for 5 minutes (`Location`)' },
    403: errorResponses[403],
    404: errorResponses[404],
  },
});

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

const revokeRoute = createRoute({
  method: 'post',
  path: '/revoke',
  tags: ['media'],
  security: bearer,
  summary: "Revoke every link handed out so far for the caller's tenant (media, QR, exports, speech)",
  description:
    'Links made before this call answer 403 from then on (within 10 seconds on every server); new links work.',
  responses: {
    200: json(z.object({ success: z.literal(true), linkEpoch: z.number().int() })),
    ...errorResponses,
  },
});

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
