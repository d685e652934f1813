import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { requireAuth } from '../auth/middleware.ts';
import { dispatchCommand, newCommandId } from '../commands/dispatch.ts';
import { getCommand, recordCommand } from '../commands/results.ts';
import type { Command } from '../commands/types.ts';
import { type AppEnv, router } from '../http/context.ts';
import { NotFoundError } from '../http/errors.ts';
import { bearer, errorResponses, json } from '../http/schemas.ts';
import { requireReadySession } from '../sessions/service.ts';

const digits = z
  .string()
  .transform((v) => v.replace(/[\s+\-()]/g, ''))
  .pipe(z.string().regex(/^\d{5,20}$/, 'digits with country code'));
/** A contact's digits or a group id (`<digits>@g.us` or bare digits with a dash). */
const chat = z
  .string()
  .trim()
  .min(3)
  .max(100)
  .regex(/^(\+?[\d\s-]+|[\d-]+@g\.us)$/, 'a phone number or <id>@g.us');

const sessionId = z.string().min(1).max(100).openapi({ description: 'Session id, mobid or mobile number' });

const ReactionBody = z.object({
  sessionId,
  to: chat,
  messageId: z.string().min(1).max(128),
  emoji: z.string().max(16).openapi({ description: 'An emoji; an empty string removes the reaction' }),
});
const PinBody = z.object({ sessionId, chatId: chat, pin: z.boolean() });
const StatusBody = z
  .object({
    sessionId,
    type: z.enum(['text', 'image', 'video']),
    content: z.string().min(1).max(65_536).openapi({ description: 'Text, or the media URL for image/video' }),
    backgroundColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, 'a hex colour like #25D366')
      .optional(),
  })
  .refine((b) => b.type === 'text' || /^https?:\/\//.test(b.content), {
    message: 'content must be an http(s) URL for image and video stories',
    path: ['content'],
  });

const GROUP_ACTIONS = [
  'create',
  'subject',
  'description',
  'add_participants',
  'remove_participants',
  'promote_participants',
  'demote_participants',
  'leave',
] as const;
const NEEDS_PARTICIPANTS = new Set([
  'create',
  'add_participants',
  'remove_participants',
  'promote_participants',
  'demote_participants',
]);

const GroupBody = z
  .object({
    sessionId,
    action: z.enum(GROUP_ACTIONS),
    groupId: z.string().trim().max(100).optional(),
    subject: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(2048).optional(),
    participants: z.array(digits).max(1024).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action !== 'create' && !b.groupId)
      ctx.addIssue({ code: 'custom', path: ['groupId'], message: `groupId is required for ${b.action}` });
    if ((b.action === 'create' || b.action === 'subject') && !b.subject)
      ctx.addIssue({ code: 'custom', path: ['subject'], message: `subject is required for ${b.action}` });
    if (b.action === 'description' && b.description === undefined)
      ctx.addIssue({ code: 'custom', path: ['description'], message: 'description is required' });
    if (NEEDS_PARTICIPANTS.has(b.action) && !b.participants?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['participants'],
        message: `participants are required for ${b.action}`,
      });
  });

const Accepted = z.object({ success: z.literal(true), commandId: z.string(), status: z.literal('pending') });
const tags = ['session actions'];

type CommandBody = Command extends infer C
  ? C extends Command
    ? Omit<C, 'commandId' | 'tenantId' | 'sessionId' | 'issuedAt'>
    : never
  : never;

/** Checks the session is READY, records the command as pending, and hands it to the host. */
async function accept(c: Context<AppEnv>, identifier: string, body: CommandBody) {
  const tenantId = c.get('auth').tenant;
  const session = await requireReadySession(tenantId, identifier);
  const commandId = newCommandId();
  await recordCommand({ commandId, tenantId, sessionId: session.sessionId, kind: body.kind });
  await dispatchCommand({
    ...body,
    commandId,
    tenantId,
    sessionId: session.sessionId,
    issuedAt: Date.now(),
  } as Command);
  return c.json({ success: true as const, commandId, status: 'pending' as const }, 202);
}

const post = (path: string, summary: string, schema: z.ZodType) =>
  createRoute({
    method: 'post',
    path,
    tags,
    security: bearer,
    summary,
    request: { body: { content: { 'application/json': { schema } } } },
    responses: {
      202: json(Accepted, 'Accepted; the result appears at /api/commands/{id}'),
      ...errorResponses,
    },
  });

const groupId = (id: string) => (id.endsWith('@g.us') ? id : `${id}@g.us`);
const chatTarget = (id: string) => (id.endsWith('@g.us') ? id : id.replace(/\D/g, ''));

export function actionRoutes() {
  const r = router();
  for (const p of [
    '/api/messages/reaction',
    '/api/sessions/pin',
    '/api/sessions/status',
    '/api/sessions/groups',
    '/api/commands/*',
  ])
    r.use(p, requireAuth);

  r.openapi(
    post('/api/messages/reaction', 'Send or remove an emoji reaction on a message', ReactionBody),
    async (c) => {
      const b = c.req.valid('json') as z.infer<typeof ReactionBody>;
      return accept(c, b.sessionId, {
        kind: 'react',
        to: chatTarget(b.to),
        messageId: b.messageId,
        emoji: b.emoji,
      });
    },
  );
  r.openapi(post('/api/sessions/pin', 'Pin or unpin a chat', PinBody), async (c) => {
    const b = c.req.valid('json') as z.infer<typeof PinBody>;
    return accept(c, b.sessionId, { kind: 'pin', chatId: chatTarget(b.chatId), pin: b.pin });
  });
  r.openapi(
    post('/api/sessions/status', 'Post a status story (text, image or video)', StatusBody),
    async (c) => {
      const b = c.req.valid('json') as z.infer<typeof StatusBody>;
      return accept(c, b.sessionId, {
        kind: 'status',
        type: b.type,
        content: b.content,
        backgroundColor: b.backgroundColor,
      });
    },
  );
  r.openapi(
    post(
      '/api/sessions/groups',
      'Group management: create, subject, description, participants, leave',
      GroupBody,
    ),
    async (c) => {
      const b = c.req.valid('json') as z.infer<typeof GroupBody>;
      return accept(c, b.sessionId, {
        kind: 'group',
        action: b.action,
        groupId: b.groupId ? groupId(b.groupId) : undefined,
        subject: b.subject,
        description: b.description,
        participants: b.participants,
      });
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/api/commands/{id}',
      tags,
      security: bearer,
      summary: 'The result of a session action',
      request: { params: z.object({ id: z.string().min(1).max(100) }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            command: z.object({
              id: z.string(),
              kind: z.string(),
              sessionId: z.string(),
              status: z.enum(['pending', 'succeeded', 'failed']),
              result: z.record(z.string(), z.unknown()).nullable(),
              error: z.string().nullable(),
              createdAt: z.string(),
              completedAt: z.string().nullable(),
            }),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const cmd = await getCommand(c.get('auth').tenant, c.req.valid('param').id);
      if (!cmd) throw new NotFoundError(`command ${c.req.valid('param').id} not found`);
      return c.json(
        {
          success: true as const,
          command: {
            id: cmd.commandId,
            kind: cmd.kind,
            sessionId: cmd.sessionId,
            status: cmd.status,
            result: cmd.result ?? null,
            error: cmd.error ?? null,
            createdAt: cmd.createdAt,
            completedAt: cmd.completedAt ?? null,
          },
        },
        200,
      );
    },
  );
  return r;
}
