import { z } from '@hono/zod-openapi';
import { json, routesTagged } from '#shared/http/schemas';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';

/**
 * The definition of the large-upload route (routes.ts): its schemas, which also make /openapi.json.
 */

const UploadRequest = z
  .object({
    contentType: z
      .string()
      .min(3)
      .max(200)
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type such as video/mp4')
      .openapi({ example: 'video/mp4' }),
    size: z
      .number()
      .int()
      .min(1)
      .max(MEDIA_MAX_BYTES)
      .openapi({ description: 'Exact size in bytes; the upload must send this Content-Length' }),
  })
  .openapi('MediaUploadRequest');

const UploadResponse = z.object({
  success: z.literal(true),
  uploadUrl: z
    .string()
    .openapi({ description: 'PUT the file here (headers content-type and content-length as given)' }),
  mediaUrl: z
    .string()
    .openapi({ description: 'Send the file by this URL (`url` of POST /api/messages/send)' }),
  key: z.string(),
  expiresIn: z.number().int(),
});

export const largeUploadRoute = routesTagged('messages')({
  method: 'post',
  path: '/uploads',
  summary: 'Presigned upload URL for a large media file, then send it by its media URL',
  request: { body: { content: { 'application/json': { schema: UploadRequest } }, required: true } },
  responses: { 200: json(UploadResponse) },
});
