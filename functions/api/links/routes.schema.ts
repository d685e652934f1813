import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, ok } from '#shared/http/schemas';

/**
 * How long the S3 address a link redirects to works. The client follows the redirect at once; the
 * address is signed with the credentials this function holds now, which outlive it.
 */
export const REDIRECT_SECONDS = 300;

export const openRoute = createRoute({
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

export const revokeRoute = createRoute({
  method: 'post',
  path: '/revoke',
  tags: ['media'],
  security: bearer,
  summary: "Revoke every link handed out so far for the caller's tenant (media, QR, exports, speech)",
  description:
    'Links made before this call answer 403 from then on (within 10 seconds on every server); new links work.',
  responses: {
    200: ok({ linkEpoch: z.number().int() }),
    ...errorResponses,
  },
});
