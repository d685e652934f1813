import { createRoute, z } from '@hono/zod-openapi';
import { bearer, json } from '#shared/http/schemas';
import { VOICE_DEFAULT_SECONDS } from '#shared/messages/content';
import { IdempotencyHeaders } from './idempotency.ts';
import { Recipient } from './recipient.ts';
import { Accepted, sendErrorResponses } from './send-routes.schema.ts';

/**
 * The definitions of the upload-send routes (upload-routes.ts): the form's fields, the documented forms
 * and the two routes, which also make /openapi.json.
 */

export const UploadTypeSchema = z.enum(['image', 'pdf', 'document', 'audio', 'video', 'voice']);

const FileField = z
  .custom<File>((v) => v instanceof File, 'file is required (one multipart file part)')
  .openapi({ type: 'string', format: 'binary' });

/** The text fields; the file part is streamed to storage, never held (multipart.ts). */
const fields = {
  to: Recipient,
  type: UploadTypeSchema.optional().openapi({ description: 'Detected from the file content when omitted' }),
  caption: z.string().max(1024).optional(),
  fileName: z.string().trim().min(1).max(255).optional(),
  duration: z.coerce
    .number()
    .positive()
    .max(3600)
    .optional()
    .openapi({ description: `Voice note seconds (default ${VOICE_DEFAULT_SECONDS})` }),
};

const Sender = z.string().trim().min(1).max(100);

const senders = { sessionId: Sender.optional(), mobid: Sender.optional(), phoneNumberId: Sender.optional() };

export const StandardFields = z
  .object({ ...fields, ...senders })
  .refine((f) => f.sessionId ?? f.mobid ?? f.phoneNumberId, {
    message: 'sessionId, mobid or phoneNumberId is required',
    path: ['sessionId'],
  });

export const PathFields = z.object(fields);

/**
 * The forms as the OpenAPI document shows them (the text fields and the file). Referenced rather
 * than given inline: a zod schema inline would make the router parse the whole body with
 * `formData()` before the handler runs.
 */
export const StandardFormDoc = z.object({ file: FileField, ...fields, ...senders }).openapi('UploadSendForm');

export const PathFormDoc = z.object({ file: FileField, ...fields }).openapi('UploadSendPathForm');

const form = (name: string) => ({
  content: { 'multipart/form-data': { schema: { $ref: `#/components/schemas/${name}` } } },
});

const responses = { 202: json(Accepted, 'Accepted and queued'), ...sendErrorResponses };

export const standardRoute = createRoute({
  method: 'post',
  path: '/upload-send',
  tags: ['messages'],
  security: bearer,
  summary: 'Upload a file (multipart, up to 64 MiB) and send it in one step',
  description:
    'The file is streamed to storage as it arrives. A sender named in a field before the file part is checked before the file is read.',
  request: { headers: IdempotencyHeaders, body: form('UploadSendForm') },
  responses,
});

export const pathRoute = createRoute({
  method: 'post',
  path: '/{phoneNumberId}/upload-send',
  tags: ['messages'],
  security: bearer,
  summary: 'Upload and send; the sender is in the path',
  description: 'The sender is checked before any of the body is read; the file is streamed to storage.',
  request: {
    params: z.object({ phoneNumberId: Sender.openapi({ param: { name: 'phoneNumberId', in: 'path' } }) }),
    headers: IdempotencyHeaders,
    body: form('UploadSendPathForm'),
  },
  responses,
});
