import { createRoute, z } from '@hono/zod-openapi';
import { bearer, json } from '#shared/http/schemas';
import { CloudError } from '../cloud/errors.ts';
import { phoneNumberIdParam } from './cloud-routes.schema.ts';

/**
 * The definition of the Cloud-API-compatible media upload (cloud-media-routes.ts): its form and
 * answers, which also make /openapi.json.
 */

export const Product = z.enum(['whatsapp', 'network']);

export const CloudMediaForm = z
  .object({
    file: z.string().openapi({ type: 'string', format: 'binary' }),
    type: z.string().max(200).optional().openapi({ description: 'MIME type of the file, e.g. image/jpeg' }),
    messaging_product: Product.optional().openapi({ description: '`whatsapp` (or `network`)' }),
  })
  .openapi('CloudMediaUploadForm');

export const cloudMediaRoute = createRoute({
  method: 'post',
  path: '/{phoneNumberId}/media',
  tags: ['messages'],
  security: bearer,
  summary: 'Cloud-API-compatible media upload (multipart, up to 64 MiB): answers a media id to send by',
  description:
    'The file is streamed to storage as it arrives; its type is read from its bytes (else the part or `type` field). The id is the tenant’s for 30 days, usable from any of its sessions.',
  request: {
    params: phoneNumberIdParam('mobid, mobile number or session id'),
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
