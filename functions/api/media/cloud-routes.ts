import { router } from '#shared/http/context';
import { publicBaseUrl } from '#shared/http/public-url';
import { requireAuth } from '../auth/middleware.ts';
import { cloudErrors } from '../cloud/errors.ts';
import { cloudMediaBytes, cloudMediaUrl, deleteCloudMedia, requireCloudMedia } from './cloud-media.ts';
import { deleteMediaRoute, INLINE_MAX, mediaContentRoute, mediaInfoRoute } from './cloud-routes.schema.ts';

/**
 * `/api/media/{mediaId}`: the Cloud API's media object (Meta serves it at `/{media-id}`). An id is
 * the tenant's; another tenant's is not found. Errors answer in the Cloud API's shape.
 */
export function cloudMediaIdRoutes() {
  // Mounted after `/uploads` (media/routes.ts), whose handler answers before these run.
  const r = router();
  r.use('/:mediaId', cloudErrors, requireAuth);
  r.use('/:mediaId/content', cloudErrors, requireAuth);

  r.openapi(mediaInfoRoute, async (c) => {
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
  });

  r.openapi(mediaContentRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const m = await requireCloudMedia(tenant, c.req.valid('param').mediaId);
    if (m.file_size > INLINE_MAX) return c.redirect(await cloudMediaUrl(tenant, m.id), 302);
    return c.body(await cloudMediaBytes(tenant, m.id), 200, {
      'content-type': m.mime_type,
      'content-length': String(m.file_size),
      'cache-control': 'private, no-store',
    });
  });

  r.openapi(deleteMediaRoute, async (c) => {
    await deleteCloudMedia(c.get('auth').tenant, c.req.valid('param').mediaId);
    return c.json({ success: true as const }, 200);
  });
  return r;
}
