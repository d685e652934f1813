import { z } from '@hono/zod-openapi';
import { ok, routesTagged } from '#shared/http/schemas';
import { isLidJid } from '#shared/phone/jid';
import { isPhoneDigits, writtenDigits } from '#shared/phone/number';
import { requireAuth } from '../auth/middleware.ts';
import { SwitchKey } from './switch-routes.schema.ts';

/**
 * The definitions of the routes of takeover-routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('chatbot');

/** At most a week, as CHATBOT_TAKEOVER_MINUTES; fractions allowed (0.5 = 30 s). */
const Minutes = z.number().positive().max(10_080);

/** A one-to-one chat: a phone number as people write it → digits, or `<lid>@lid` as it is. */
const ChatId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .transform((v, ctx) => {
    if (isLidJid(v)) return v;
    const digits = writtenDigits(v);
    if (isPhoneDigits(digits)) return digits;
    ctx.addIssue({ code: 'custom', message: 'a phone number with country code, or <lid>@lid' });
    return z.NEVER;
  })
  .openapi({ description: 'the customer chat: phone number with country code, or `<lid>@lid`' });

const Paused = z
  .object({
    chatId: z.string(),
    until: z.string().openapi({ description: 'ISO time the bot answers the chat again' }),
    by: z.enum(['phone', 'api', 'console']),
  })
  .openapi('TakeoverEntry');

export const takeoverRoute = route({
  method: 'post',
  path: '/takeover',
  middleware: [requireAuth] as const,
  summary: 'Pause the bot for one chat (a person answers), or hand the chat back to the bot',
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            sessionId: z
              .string()
              .trim()
              .min(1)
              .max(100)
              .openapi({ description: 'session id, mobid or number' }),
            chatId: ChatId,
            paused: z.boolean(),
            minutes: Minutes.optional().openapi({
              description: "how long, when pausing; the session's takeover minutes by default",
            }),
          }),
        },
      },
    },
  },
  responses: {
    200: ok({
      sessionId: z.string(),
      chatId: z.string(),
      paused: z.boolean(),
      until: z.string().nullable(),
      by: z.enum(['phone', 'api', 'console']).nullable(),
    }),
  },
});

export const takeoversRoute = route({
  method: 'get',
  path: '/takeover',
  middleware: [requireAuth] as const,
  summary: "The session's chats the bot stays out of now, with until when and who took them over",
  request: { query: z.object({ sessionId: z.string().trim().min(1).max(100) }) },
  responses: { 200: ok({ sessionId: z.string(), paused: z.array(Paused) }) },
});

export const takeoverMinutesRoute = route({
  method: 'post',
  path: '/takeover/minutes',
  middleware: [requireAuth] as const,
  summary: 'How long a takeover lasts, for one session key (null: back to the next key or the default)',
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            minutes: Minutes.nullable(),
            sessionKey: SwitchKey.optional().openapi({ description: 'default `global` (tenant-wide)' }),
          }),
        },
      },
    },
  },
  responses: { 200: ok({ sessionKey: z.string(), minutes: z.number().nullable() }) },
});
