import { createRoute, z } from '@hono/zod-openapi';
import { bearer, json } from '#shared/http/schemas';
import { CloudError } from '../cloud/errors.ts';
import { MEDIA_ID } from './cloud-media.ts';

/**
 * The definitions of the Cloud-API-compatible media routes (cloud-routes.ts), which also make
 * /openapi.json.
 */

/**
 * The largest file `…/content` (and a session's message media) answers itself: a Lambda answer
 * through API Gateway holds at most 6 MB, and binary goes base64 (4/3 larger). A larger one is a redirect to a presigned URL, which
 * HTTP clients follow without the bearer token (they drop `Authorization` on another origin).
 */
export const INLINE_MAX = 4 * 1024 * 1024;

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

export const mediaInfoRoute = createRoute({
  method: 'get',
  path: '/{mediaId}',
  tags,
  security: bearer,
  summary: 'Cloud-API-compatible media object: its type, digest, size and a URL of its bytes',
  request: { params: MediaIdParam },
  responses: { 200: json(MediaInfo), ...errors },
});

export const mediaContentRoute = createRoute({
  method: 'get',
  path: '/{mediaId}/content',
  tags,
  security: bearer,
  summary: 'The media’s bytes (the `url` of the media object); a large file redirects to a short-lived URL',
  request: { params: MediaIdParam },
  responses: {
    200: {
      description: 'The bytes',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    302: { description: `Files above ${INLINE_MAX} bytes: a presigned URL of the bytes (10 minutes)` },
    ...errors,
  },
});

export const deleteMediaRoute = createRoute({
  method: 'delete',
  path: '/{mediaId}',
  tags,
  security: bearer,
  summary: 'Cloud-API-compatible media deletion',
  request: { params: MediaIdParam },
  responses: { 200: json(z.object({ success: z.literal(true) })), ...errors },
});
