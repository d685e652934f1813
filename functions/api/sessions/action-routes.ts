import { z } from '@hono/zod-openapi';
import { PresenceState } from '#shared/commands/types';
import { router } from '#shared/http/context';
import { groupIdInput, phoneNumberInput } from '#shared/phone/schema';
import { acceptCommand } from '../commands/accept.ts';
import { actionRoute, ChatRef, SessionRef } from '../commands/schemas.ts';
import { requireReadySession } from './service.ts';

/** Phone numbers a status request may name besides the stored contacts. */
const STATUS_AUDIENCE_MAX = 1000;

const PinBody = z.object({ sessionId: SessionRef, chatId: ChatRef, pin: z.boolean() });
const PresenceBody = z.object({
  sessionId: SessionRef,
  chatId: ChatRef,
  state: PresenceState.describe(
    '`composing` (typing) or `recording` (a voice note) in the chat until `paused`; `available` / `unavailable`: the session online or offline',
  ),
});
const StatusBody = z
  .object({
    sessionId: SessionRef,
    type: z.enum(['text', 'image', 'video']),
    content: z.string().min(1).max(65_536).openapi({ description: 'Text, or the media URL for image/video' }),
    backgroundColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, 'a hex colour like #25D366')
      .optional(),
    audience: z
      .array(phoneNumberInput())
      .max(STATUS_AUDIENCE_MAX)
      .optional()
      .openapi({
        description: `Phone numbers that should see the story besides the session's stored contacts (at most ${STATUS_AUDIENCE_MAX})`,
      }),
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
    sessionId: SessionRef,
    action: z.enum(GROUP_ACTIONS),
    groupId: groupIdInput().optional(),
    subject: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(2048).optional(),
    participants: z.array(phoneNumberInput()).max(1024).optional(),
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

const accepted = (commandId: string) => ({ success: true as const, commandId, status: 'pending' as const });

/** Chat pin, presence, status stories and group management; mounted inside `/api/sessions`. */
export function sessionActionRoutes() {
  const r = router();
  r.openapi(actionRoute('/pin', 'Pin or unpin a chat', PinBody), async (c) => {
    const b = c.req.valid('json');
    const { commandId } = await acceptCommand(await requireReadySession(c.get('auth').tenant, b.sessionId), {
      kind: 'pin',
      chatId: b.chatId,
      pin: b.pin,
    });
    return c.json(accepted(commandId), 202);
  });
  r.openapi(
    actionRoute('/presence', 'Show typing, recording or online state to a chat', PresenceBody),
    async (c) => {
      const b = c.req.valid('json');
      const { commandId } = await acceptCommand(
        await requireReadySession(c.get('auth').tenant, b.sessionId),
        {
          kind: 'presence',
          chatId: b.chatId,
          state: b.state,
        },
      );
      return c.json(accepted(commandId), 202);
    },
  );
  r.openapi(actionRoute('/status', 'Post a status story (text, image or video)', StatusBody), async (c) => {
    const b = c.req.valid('json');
    const { commandId } = await acceptCommand(await requireReadySession(c.get('auth').tenant, b.sessionId), {
      kind: 'status',
      type: b.type,
      content: b.content,
      backgroundColor: b.backgroundColor,
      ...(b.audience?.length ? { audience: b.audience } : {}),
    });
    return c.json(accepted(commandId), 202);
  });
  r.openapi(
    actionRoute('/groups', 'Group management: create, subject, description, participants, leave', GroupBody),
    async (c) => {
      const b = c.req.valid('json');
      const { commandId } = await acceptCommand(
        await requireReadySession(c.get('auth').tenant, b.sessionId),
        {
          kind: 'group',
          action: b.action,
          groupId: b.groupId,
          subject: b.subject,
          description: b.description,
          participants: b.participants,
        },
      );
      return c.json(accepted(commandId), 202);
    },
  );
  return r;
}
