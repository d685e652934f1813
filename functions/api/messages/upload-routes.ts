import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { router } from '#shared/http/context';
import { ValidationError } from '#shared/http/errors';
import { must } from '#shared/must';
import { requireAuth } from '../auth/middleware.ts';
import {
  checkNetworkLimit,
  type DetectedFile,
  type UploadType,
  uploadKeyOf,
  uploadSink,
  uploadUrl,
} from '../media/upload.ts';
import { requireReadySession } from '../sessions/service.ts';
import { buildContent } from './content-builder.ts';
import { readFileForm } from './file-form.ts';
import { idempotent } from './idempotency.ts';
import { newMessageId } from './message-id.ts';
import type { Accepted } from './send-routes.schema.ts';
import { acceptSend } from './send-service.ts';
import {
  PathFields,
  PathFormDoc,
  pathRoute,
  StandardFields,
  StandardFormDoc,
  standardRoute,
  UploadTypeSchema,
} from './upload-routes.schema.ts';

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
  const messageId = newMessageId();
  const key = uploadKeyOf(tenant, messageId);
  const form = await readFileForm(c.req.raw, key, async (part, raw) => {
    const sender = raw.sessionId ?? raw.mobid ?? raw.phoneNumberId;
    if (!session && sender) session = await requireReadySession(tenant, sender.trim());
    const asked = UploadTypeSchema.safeParse(raw.type).data;
    return uploadSink(key, part.contentType, (d) => resolveType(asked, d));
  });
  const { fields: raw, file } = form;
  const stored = file.stored;
  try {
    let f: z.infer<typeof PathFields> = parseFields(PathFields, raw);
    if (!pathSender) {
      const standard = parseFields(StandardFields, raw);
      session ??= await requireReadySession(tenant, senderOf(standard));
      f = standard;
    }
    const ready = must(session, 'the sending session, judged from the path or the form above');
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
        session: ready,
        to: f.to,
        content,
        messageId,
        requestId: c.get('requestId'),
      });
      return { success: true as const, ...accepted };
    });
    // A replayed answer sent nothing: this request's copy of the file is not needed.
    if (!sent) await form.discard();
    return answer;
  } catch (err) {
    await form.discard();
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
