import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { publicBaseUrl } from '#shared/http/public-url';
import { bearer, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { CloudError, cloudErrors } from '../messages/cloud-errors.ts';
import {
  cloudMediaBytes,
  cloudMediaUrl,
  deleteCloudMedia,
  MEDIA_ID,
  requireCloudMedia,
} from './cloud-media.ts';

/**
 * The largest file `…/content` answers itself: a Lambda answer through API Gateway holds at most
 * 6 MB, and binary goes base64 (4/3 larger). A larger one is a redirect to a presigned URL, which
 * HTTP clients follow without the bearer token (they drop `Authorization` on another origin).
 */
const INLINE_MAX = 4 * 1024 * 1024;

const MediaIdParam = z.object({
  mediaId: z
    .string()
    .regex(MEDIA_ID, 'a media id (digits)')
    .openapi({ param: { name: 'mediaId', in: 'path' }, example: '482913000123456' }),
});

const MediaInfo = z
  .object({
    messaging_product: z.literal('whatsapp'),
    url: z.string().openapi({ description: 'GET with the same bearer token for the bytes' }),
    mime_type: z.string(),
    sha256: z.string(),
    file_size: z.number().int(),
    id: z.string(),
  })
  .openapi('CloudMediaInfo');

const errors = {
  400: json(CloudError, 'Invalid media id (code 100)'),
  401: json(CloudError, 'Invalid token (code 190)'),
  404: json(CloudError, 'Unknown, deleted or expired media id (code 100)'),
};

const tags = ['messages'];

/**
 * `/api/media/{mediaId}`: the Cloud API's media object (Meta serves it at `/{media-id}`). An id is
 * the tenant's; another tenant's is not found. Errors answer in the Cloud API's shape.
 */
export function cloudMediaIdRoutes() {
  // Mounted after `/uploads` (media/routes.ts), whose handler answers before these run.
  const r = router();
  r.use('/:mediaId', cloudErrors, requireAuth);
  r.use('/:mediaId/content', cloudErrors, requireAuth);

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{mediaId}',
      tags,
      security: bearer,
      summary: 'Cloud-API-compatible media object: its type, digest, size and a URL of its bytes',
      request: { params: MediaIdParam },
      responses: { 200: json(MediaInfo), ...errors },
    }),
    async (c) => {
      const { mediaId } = c.req.valid('param');
      const m = await requireCloudMedia(c.get('auth').tenant, mediaId);
      const url = `${publicBaseUrl(c)}/api/media/${m.id}/content`;
      return c.json(
        {
          messaging_product: 'whatsapp' as const,
          url,
          mime_type: m.mime_type,
          sha256: m.sha256,
          file_size: m.file_size,
          id: m.id,
        },
        200,
      );
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/{mediaId}/content',
      tags,
      security: bearer,
      summary:
        'The media’s bytes (the `url` of the media object); a large file redirects to a short-lived URL',
      request: { params: MediaIdParam },
      responses: {
        200: {
          description: 'The bytes',
          content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
        },
        302: { description: `Files above ${INLINE_MAX} bytes: a presigned URL of the bytes (10 minutes)` },
        ...errors,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const m = await requireCloudMedia(tenant, c.req.valid('param').mediaId);
      if (m.file_size > INLINE_MAX) return c.redirect(await cloudMediaUrl(tenant, m.id), 302);
      return c.body(await cloudMediaBytes(tenant, m.id), 200, {
        'content-type': m.mime_type,
        'content-length': String(m.file_size),
        'cache-control': 'private, no-store',
      });
    },
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/{mediaId}',
      tags,
      security: bearer,
      summary: 'Cloud-API-compatible media deletion',
      request: { params: MediaIdParam },
      responses: { 200: json(z.object({ success: z.literal(true) })), ...errors },
    }),
    async (c) => {
      await deleteCloudMedia(c.get('auth').tenant, c.req.valid('param').mediaId);
      return c.json({ success: true as const }, 200);
    },
  );
  return r;
}
