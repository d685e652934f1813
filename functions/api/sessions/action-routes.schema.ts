import { z } from '@hono/zod-openapi';
import { PresenceState } from '#shared/commands/types';
import { groupIdInput, phoneNumberInput } from '#shared/phone/schema';
import { actionRoute, ChatRef, SessionRef } from '../commands/schemas.ts';

/**
 * The definitions of the session actions (action-routes.ts): their bodies, which also make
 * /openapi.json.
 */

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

export const pinRoute = actionRoute('/pin', 'Pin or unpin a chat', PinBody);
export const presenceRoute = actionRoute(
  '/presence',
  'Show typing, recording or online state to a chat',
  PresenceBody,
);
export const statusRoute = actionRoute('/status', 'Post a status story (text, image or video)', StatusBody);
export const groupsRoute = actionRoute(
  '/groups',
  'Group management: create, subject, description, participants, leave',
  GroupBody,
);
