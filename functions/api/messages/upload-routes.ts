import { createHash } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { router } from '#shared/http/context';
import { ValidationError } from '#shared/http/errors';
import { bearer, json } from '#shared/http/schemas';
import { logger } from '#shared/log/logger';
import { VOICE_DEFAULT_SECONDS } from '#shared/messages/content';
import { requireAuth } from '../auth/middleware.ts';
import { requireReadySession } from '../sessions/service.ts';
import { buildContent } from './content-builder.ts';
import { IdempotencyHeaders, idempotent } from './idempotency.ts';
import { newMessageId } from './message-id.ts';
import { Recipient } from './recipient.ts';
import { Accepted, sendErrorResponses } from './send-routes.ts';
import { acceptSend } from './send-service.ts';
import {
  checkNetworkLimit,
  type DetectedFile,
  deleteUpload,
  detectFile,
  storeUpload,
  type UploadType,
  uploadKeyOf,
} from './upload.ts';

const UploadTypeSchema = z.enum(['image', 'pdf', 'document', 'audio', 'video', 'voice']);

const FileField = z
  .custom<File>((v) => v instanceof File, 'file is required (one multipart file part)')
  .openapi({ type: 'string', format: 'binary' });

const fields = {
  file: FileField,
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

const StandardForm = z
  .object({
    ...fields,
    sessionId: Sender.optional(),
    mobid: Sender.optional(),
    phoneNumberId: Sender.optional(),
  })
  .refine((f) => f.sessionId ?? f.mobid ?? f.phoneNumberId, {
    message: 'sessionId, mobid or phoneNumberId is required',
    path: ['sessionId'],
  });

const PathForm = z.object(fields);

const form = <T extends z.ZodType>(schema: T) => ({
  content: { 'multipart/form-data': { schema } },
});

const responses = { 202: json(Accepted, 'Accepted and queued'), ...sendErrorResponses };

const standardRoute = createRoute({
  method: 'post',
  path: '/upload-send',
  tags: ['messages'],
  security: bearer,
  summary: 'Upload a file (multipart, up to 64 MiB) and send it in one step',
  request: { headers: IdempotencyHeaders, body: form(StandardForm) },
  responses,
});

const pathRoute = createRoute({
  method: 'post',
  path: '/{phoneNumberId}/upload-send',
  tags: ['messages'],
  security: bearer,
  summary: 'Upload and send; the sender is in the path',
  request: {
    headers: IdempotencyHeaders,
    params: z.object({ phoneNumberId: Sender.openapi({ param: { name: 'phoneNumberId', in: 'path' } }) }),
    body: form(PathForm),
  },
  responses,
});

const FAMILY: Partial<Record<UploadType, (mime: string) => boolean>> = {
  image: (m) => m.startsWith('image/'),
  video: (m) => m.startsWith('video/'),
  audio: (m) => m.startsWith('audio/') || m === 'video/ogg' || m === 'application/ogg',
  voice: (m) => m.startsWith('audio/') || m === 'video/ogg' || m === 'application/ogg',
  pdf: (m) => m === 'application/pdf',
};

/** The type asked for must fit the bytes; `document` takes anything. */
function resolveType(asked: UploadType | undefined, detected: DetectedFile): UploadType {
  if (!asked) return detected.type;
  const fits = FAMILY[asked];
  if (fits && !fits(detected.mimetype)) {
    throw new ValidationError(
      `type: the file is ${detected.mimetype}, which cannot be sent as ${asked}`,
      'type',
    );
  }
  return asked;
}

/**
 * Once per `Idempotency-Key`: the request is identified by the sender, its fields and the file's
 * digest, so a retry of the same upload is recognised before anything is stored again.
 */
async function uploadAndSend(
  c: Context<AppEnv>,
  sender: string,
  f: z.infer<typeof PathForm>,
): Promise<z.infer<typeof Accepted>> {
  const bytes = new Uint8Array(await f.file.arrayBuffer());
  const { file, ...fields } = f;
  const request = {
    sender,
    ...fields,
    file: { name: file.name, type: file.type, sha256: createHash('sha256').update(bytes).digest('hex') },
  };
  return idempotent(c, request, () => storeAndSend(c, sender, f, bytes));
}

async function storeAndSend(
  c: Context<AppEnv>,
  sender: string,
  f: z.infer<typeof PathForm>,
  bytes: Uint8Array,
): Promise<z.infer<typeof Accepted>> {
  const tenant = c.get('auth').tenant;
  const session = await requireReadySession(tenant, sender);
  const detected = await detectFile(bytes, f.file.type || undefined);
  const type = resolveType(f.type, detected);
  checkNetworkLimit(type, bytes.byteLength);

  const messageId = newMessageId();
  const key = uploadKeyOf(tenant, messageId);
  const mimetype = type === 'pdf' ? 'application/pdf' : detected.mimetype;
  const url = await storeUpload(key, bytes, mimetype);
  const partName = f.file.name && f.file.name !== 'blob' ? f.file.name : undefined;
  const content = buildContent(type, {
    mediaUrl: url,
    mimetype,
    uploadKey: key,
    caption: f.caption,
    fileName: f.fileName ?? partName,
    durationSeconds: f.duration,
  });
  try {
    const accepted = await acceptSend({
      session,
      to: f.to,
      content,
      messageId,
      requestId: c.get('requestId'),
    });
    return { success: true as const, ...accepted };
  } catch (err) {
    await deleteUpload(key).catch((e) =>
      logger.warn({ err: e, key }, 'upload not removed; lifecycle rule will'),
    );
    throw err;
  }
}

export function uploadRoutes() {
  const r = router();
  r.use('/upload-send', requireAuth);
  r.use('/:phoneNumberId/upload-send', requireAuth);

  r.openapi(standardRoute, async (c) => {
    const f = c.req.valid('form');
    const sender = (f.sessionId ?? f.mobid ?? f.phoneNumberId)!;
    return c.json(await uploadAndSend(c, sender, f), 202);
  });

  r.openapi(pathRoute, async (c) => {
    const f = c.req.valid('form');
    return c.json(await uploadAndSend(c, c.req.valid('param').phoneNumberId, f), 202);
  });
  return r;
}
