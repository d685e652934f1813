import { createRoute, z } from '@hono/zod-openapi';
import { bearer, json } from '#shared/http/schemas';
import { CloudError } from '../cloud/errors.ts';
import { CloudMessageBody as Body } from './cloud-api.ts';
import { IdempotencyHeaders } from './idempotency.ts';

/**
 * The definition of the Cloud-API-compatible send (cloud-routes.ts): its answers as Meta gives them,
 * which also make /openapi.json. Its body is cloud-api.ts.
 */

/** The `{phoneNumberId}` of a Cloud-API-compatible path: one of the tenant's sessions, by any of its names. */
export const phoneNumberIdParam = (description: string) =>
  z.object({
    phoneNumberId: z
      .string()
      .min(1)
      .max(100)
      .openapi({ description, param: { name: 'phoneNumberId', in: 'path' } }),
  });

export const CloudMessageResponse = z
  .object({
    messaging_product: z.string(),
    contacts: z.array(z.object({ input: z.string(), wa_id: z.string() })),
    messages: z.array(z.object({ id: z.string().openapi({ example: 'wamid.3EB0A1B2C3D4E5F60718' }) })),
  })
  .openapi('CloudMessageResponse');

/** The answer to `status: read`, as Meta gives it. */
export const CloudReadResponse = z.object({ success: z.literal(true) }).openapi('CloudReadResponse');

const PATH = '/{phoneNumberId}/messages';

export const cloudSendRoute = createRoute({
  method: 'post',
  path: PATH,
  tags: ['messages'],
  security: bearer,
  summary:
    'Cloud-API-compatible send (or mark read with a typing indicator); the sender (mobid, mobile number or session id) is in the path',
  request: {
    headers: IdempotencyHeaders,
    params: phoneNumberIdParam('mobid (recommended), mobile number or session id'),
    body: { content: { 'application/json': { schema: Body } } },
  },
  responses: {
    200: json(
      z.union([CloudMessageResponse, CloudReadResponse]),
      'Sent; or `{success: true}` for `status: read`',
    ),
    400: json(CloudError, 'Invalid parameter (code 100, or 132000 for template parameters)'),
    401: json(CloudError, 'Invalid token (code 190)'),
    404: json(CloudError, 'Unknown phone number id (code 100, subcode 33) or template (code 132001)'),
    422: json(CloudError, 'Session not connected (code 133010)'),
    429: json(CloudError, 'Monthly quota used up (code 131042, Retry-After set)'),
  },
});
