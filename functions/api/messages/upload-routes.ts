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
import { boundaryOf, readMultipart } from './multipart.ts';
import { Recipient } from './recipient.ts';
import { Accepted, sendErrorResponses } from './send-routes.ts';
import { acceptSend } from './send-service.ts';
import {
  checkNetworkLimit,
  type DetectedFile,
  type StoredFile,
  type UploadType,
  uploadKeyOf,
  uploadSink,
  uploadUrl,
} from './upload.ts';

const UploadTypeSchema = z.enum(['image', 'pdf', 'document', 'audio', 'video', 'voice']);

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

const StandardFields = z
  .object({ ...fields, ...senders })
  .refine((f) => f.sessionId ?? f.mobid ?? f.phoneNumberId, {
    message: 'sessionId, mobid or phoneNumberId is required',
    path: ['sessionId'],
  });

const PathFields = z.object(fields);

/**
 * The forms as the OpenAPI document shows them (the text fields and the file). Referenced rather
 * than given inline: a zod schema inline would make the router parse the whole body with
 * `formData()` before the handler runs.
 */
const StandardFormDoc = z.object({ file: FileField, ...fields, ...senders }).openapi('UploadSendForm');
const PathFormDoc = z.object({ file: FileField, ...fields }).openapi('UploadSendPathForm');

const form = (name: string) => ({
  content: { 'multipart/form-data': { schema: { $ref: `#/components/schemas/${name}` } } },
});

const responses = { 202: json(Accepted, 'Accepted and queued'), ...sendErrorResponses };

const standardRoute = createRoute({
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

const pathRoute = createRoute({
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

/** Zod's verdict on the text fields, as the router's validation would give it. */
function parseFields<T extends z.ZodType>(schema: T, raw: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || undefined;
  throw new ValidationError(
    field ? `${field}: ${issue?.message}` : (issue?.message ?? 'invalid input'),
    field,
  );
}

/** The sender a form names (the path form names none: its sender was judged first). */
const senderOf = (f: { sessionId?: string; mobid?: string; phoneNumberId?: string }) =>
  f.sessionId ?? f.mobid ?? f.phoneNumberId ?? '';

/**
 * Reads the form as it arrives and sends its file. The sender is judged as early as it is known:
 * from the path before the body is read, else from a field that comes before the file. The file
 * goes straight to S3; whatever is refused after it was stored is deleted again. The send runs once
 * per `Idempotency-Key`: the request is identified by the sender, its fields and the file's digest
 * (taken as it streams), and a retry's copy of the file is deleted again when the first answer is
 * replayed.
 */
async function uploadAndSend(
  c: Context<AppEnv>,
  pathSender: string | undefined,
): Promise<z.infer<typeof Accepted>> {
  const tenant = c.get('auth').tenant;
  let session = pathSender ? await requireReadySession(tenant, pathSender) : undefined;
  const boundary = boundaryOf(c.req.header('content-type'));
  const raw: Record<string, string> = {};
  const messageId = newMessageId();
  const key = uploadKeyOf(tenant, messageId);
  let sink: ReturnType<typeof uploadSink> | undefined;
  let file: { name: string; type: string; stored?: StoredFile } | undefined;
  try {
    await readMultipart(c.req.raw.body, boundary, {
      field: (name, value) => {
        raw[name] = value;
      },
      file: async (part) => {
        if (part.name !== 'file' || file)
          throw new ValidationError('file: send one file part, named file', 'file');
        const sender = raw.sessionId ?? raw.mobid ?? raw.phoneNumberId;
        if (!session && sender) session = await requireReadySession(tenant, sender.trim());
        const asked = UploadTypeSchema.safeParse(raw.type).data;
        const s = uploadSink(key, part.contentType, (d) => resolveType(asked, d));
        const f: { name: string; type: string; stored?: StoredFile } = {
          name: part.filename,
          type: part.contentType ?? '',
        };
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
    let f: z.infer<typeof PathFields> = parseFields(PathFields, raw);
    if (!pathSender) {
      const standard = parseFields(StandardFields, raw);
      session ??= await requireReadySession(tenant, senderOf(standard));
      f = standard;
    }
    // A type named after the file was not known while it streamed: judged now.
    const type = resolveType(f.type, stored);
    checkNetworkLimit(type, stored.size);
    const mimetype = type === 'pdf' ? 'application/pdf' : stored.mimetype;
    const partName = file.name && file.name !== 'blob' ? file.name : undefined;
    const content = buildContent(type, {
      mediaUrl: await uploadUrl(key),
      mimetype,
      uploadKey: key,
      caption: f.caption,
      fileName: f.fileName ?? partName,
      durationSeconds: f.duration,
    });
    const fields = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'file'));
    const request = {
      sender: pathSender ?? senderOf(f as { sessionId?: string }),
      ...fields,
      file: { name: file.name, type: file.type, sha256: stored.sha256 },
    };
    let sent = false;
    const answer = await idempotent(c, request, async () => {
      sent = true;
      const accepted = await acceptSend({
        session: session!, // judged before the body (path) or from the form's sender above
        to: f.to,
        content,
        messageId,
        requestId: c.get('requestId'),
      });
      return { success: true as const, ...accepted };
    });
    // A replayed answer sent nothing: this request's copy of the file is not needed.
    if (!sent)
      await sink
        ?.discard()
        .catch((e) => logger.warn({ err: e, key }, 'upload not removed; lifecycle rule will'));
    return answer;
  } catch (err) {
    await (sink as ReturnType<typeof uploadSink> | undefined)
      ?.discard()
      .catch((e) => logger.warn({ err: e, key }, 'upload not removed; lifecycle rule will'));
    throw err;
  }
}

export function uploadRoutes() {
  const r = router();
  r.use('/upload-send', requireAuth);
  r.use('/:phoneNumberId/upload-send', requireAuth);

  r.openAPIRegistry.register('UploadSendForm', StandardFormDoc);
  r.openAPIRegistry.register('UploadSendPathForm', PathFormDoc);
  r.openapi(standardRoute, async (c) => c.json(await uploadAndSend(c, undefined), 202));
  r.openapi(pathRoute, async (c) => c.json(await uploadAndSend(c, c.req.valid('param').phoneNumberId), 202));
  return r;
}
