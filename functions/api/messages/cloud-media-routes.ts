import { router } from '#shared/http/context';
import { NotFoundError, ValidationError } from '#shared/http/errors';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { cloudErrors } from '../cloud/errors.ts';
import { type CloudMedia, cloudMediaKeyOf, newMediaId, saveCloudMedia } from '../media/cloud-media.ts';
import { uploadSink } from '../media/upload.ts';
import { CloudMediaForm, cloudMediaRoute, Product } from './cloud-media-routes.schema.ts';
import { readFileForm } from './file-form.ts';

export function cloudMediaRoutes() {
  const r = router();
  r.use('/:phoneNumberId/media', cloudErrors);
  r.use('/:phoneNumberId/media', requireAuth);
  r.openAPIRegistry.register('CloudMediaUploadForm', CloudMediaForm);

  r.openapi(cloudMediaRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const session = await requireSession(tenant, c.req.valid('param').phoneNumberId);
    if (session.dbStatus !== 'active') throw new NotFoundError('session deleted', 'SESSION_NOT_FOUND');
    const id = newMediaId();
    const key = cloudMediaKeyOf(tenant, id);
    // The bytes decide the kind; a declared type only names what they do not reveal.
    const form = await readFileForm(c.req.raw, key, (part, raw) =>
      uploadSink(key, part.contentType ?? raw.type, (d) => d.type),
    );
    const { fields: raw, file } = form;
    const stored = file.stored;
    try {
      const product = raw.messaging_product ?? c.req.valid('query').messaging_product;
      if (product !== undefined && !Product.safeParse(product).success)
        throw new ValidationError('messaging_product: must be whatsapp (or network)', 'messaging_product');
      const media: CloudMedia = {
        id,
        mime_type: stored.mimetype,
        sha256: stored.sha256,
        file_size: stored.size,
        ...(file.name && file.name !== 'blob' ? { file_name: file.name } : {}),
      };
      await saveCloudMedia(tenant, media);
      return c.json({ id }, 200);
    } catch (err) {
      await form.discard();
      throw err;
    }
  });
  return r;
}
