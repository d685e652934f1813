import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { NotFoundError, ValidationError } from '#shared/http/errors';
import { bearer, json } from '#shared/http/schemas';
import { logger } from '#shared/log/logger';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { type CloudMedia, cloudMediaKeyOf, newMediaId, saveCloudMedia } from '../media/cloud-media.ts';
import { CloudError } from './cloud-api.ts';
import { cloudErrors } from './cloud-errors.ts';
import { boundaryOf, readMultipart } from './multipart.ts';
import { type StoredFile, uploadSink } from './upload.ts';

const Product = z.enum(['whatsapp', 'network']);

const CloudMediaForm = z
  .object({
    file: z.string().openapi({ type: 'string', format: 'binary' }),
    type: z.string().max(200).optional().openapi({ description: 'MIME type of the file, e.g. image/jpeg' }),
    messaging_product: Product.optional().openapi({ description: '`whatsapp` (or `network`)' }),
  })
  .openapi('CloudMediaUploadForm');

const route = createRoute({
  method: 'post',
  path: '/{phoneNumberId}/media',
  tags: ['messages'],
  security: bearer,
  summary: 'Cloud-API-compatible media upload (multipart, up to 64 MiB): answers a media id to send by',
  description:
    'The file is streamed to storage as it arrives; its type is read from its bytes (else the part or `type` field). The id is the tenant’s for 30 days, usable from any of its sessions.',
  request: {
    params: z.object({
      phoneNumberId: z
        .string()
        .min(1)
        .max(100)
        .openapi({
          description: 'mobid, mobile number or session id',
          param: { name: 'phoneNumberId', in: 'path' },
        }),
    }),
    query: z.object({ messaging_product: Product.optional() }),
    body: {
      content: { 'multipart/form-data': { schema: { $ref: '#/components/schemas/CloudMediaUploadForm' } } },
    },
  },
  responses: {
    200: json(z.object({ id: z.string() }).openapi('CloudMediaId')),
    400: json(CloudError, 'Invalid parameter (code 100)'),
    401: json(CloudError, 'Invalid token (code 190)'),
    404: json(CloudError, 'Unknown phone number id (code 100, subcode 33)'),
    413: json(CloudError, 'File too large for its kind (code 131053)'),
    415: json(CloudError, 'Not multipart/form-data (code 100)'),
  },
});

export function cloudMediaRoutes() {
  const r = router();
  r.use('/:phoneNumberId/media', cloudErrors);
  r.use('/:phoneNumberId/media', requireAuth);
  r.openAPIRegistry.register('CloudMediaUploadForm', CloudMediaForm);

  r.openapi(route, async (c) => {
    const tenant = c.get('auth').tenant;
    const session = await requireSession(tenant, c.req.valid('param').phoneNumberId);
    if (session.dbStatus !== 'active') throw new NotFoundError('session deleted', 'SESSION_NOT_FOUND');
    const boundary = boundaryOf(c.req.header('content-type'));
    const id = newMediaId();
    const key = cloudMediaKeyOf(tenant, id);
    const raw: Record<string, string> = {};
    let sink: ReturnType<typeof uploadSink> | undefined;
    let file: { name: string; stored?: StoredFile } | undefined;
    try {
      await readMultipart(c.req.raw.body, boundary, {
        field: (name, value) => {
          raw[name] = value;
        },
        file: async (part) => {
          if (part.name !== 'file' || file)
            throw new ValidationError('file: send one file part, named file', 'file');
          // The bytes decide the kind; a declared type only names what they do not reveal.
          const s = uploadSink(key, part.contentType ?? raw.type, (d) => d.type);
          const f: { name: string; stored?: StoredFile } = { name: part.filename };
          [sink, file] = [s, f];
          return {
            write: (chunk) => s.write(chunk),
            end: async () => {
              f.stored = await s.end();
            },
          };
        },
      });
      const stored = file?.stored;
      if (!file || !stored)
        throw new ValidationError('file: file is required (one multipart file part)', 'file');
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
      await (sink as ReturnType<typeof uploadSink> | undefined)
        ?.discard()
        .catch((e) => logger.warn({ err: e, key }, 'media not removed; lifecycle rule will'));
      throw err;
    }
  });
  return r;
}
