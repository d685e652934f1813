import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses } from '#shared/http/schemas';
import { INLINE_MAX } from '../media/cloud-routes.schema.ts';

/** The definition of a message's media route (media-routes.ts), which also makes /openapi.json. */

const Params = z.object({
  sessionId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .openapi({ description: 'Session id, mobid or mobile number', param: { name: 'sessionId', in: 'path' } }),
  messageId: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'messageId', in: 'path' } }),
});

export const messageMediaRoute = createRoute({
  method: 'get',
  path: '/{sessionId}/messages/{messageId}/media',
  tags: ['sessions'],
  security: bearer,
  summary: "A stored message's media file (the bytes with their type); larger files redirect",
  request: { params: Params },
  responses: {
    200: {
      description: 'The bytes, with the content type the message names',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    302: {
      description: `Files above ${INLINE_MAX} bytes: a presigned URL of the bytes (10 minutes)`,
    },
    ...errorResponses,
  },
});
