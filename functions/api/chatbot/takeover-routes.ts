import { createRoute, z } from '@hono/zod-openapi';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { setTakeoverMinutes } from '#shared/chatbot/switches';
import { listTakeovers, pauseChat, resumeChat, type Takeover } from '#shared/chatbot/takeover';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { isLidJid } from '#shared/phone/jid';
import { isPhoneDigits, writtenDigits } from '#shared/phone/number';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { SwitchKey } from './switch-routes.ts';

const tags = ['chatbot'];

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

const view = (t: Takeover) => ({ chatId: t.chatId, until: new Date(t.until).toISOString(), by: t.by });

/** `/takeover` and `/takeover/minutes` (mounted under `/api/v1/chatbot`; docs/chatbot.md, "Human takeover"). */
export function takeoverRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'post',
      path: '/takeover',
      tags,
      security: bearer,
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
        200: json(
          z.object({
            success: z.literal(true),
            sessionId: z.string(),
            chatId: z.string(),
            paused: z.boolean(),
            until: z.string().nullable(),
            by: z.enum(['phone', 'api', 'console']).nullable(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const b = c.req.valid('json');
      const session = await requireSession(tenant, b.sessionId);
      const base = { success: true as const, sessionId: session.sessionId, chatId: b.chatId };
      if (!b.paused) {
        await resumeChat(tenant, session, b.chatId, 'console');
        return c.json({ ...base, paused: false, until: null, by: null }, 200);
      }
      const t = await pauseChat(tenant, session, b.chatId, 'console', b.minutes);
      return c.json({ ...base, paused: true, until: new Date(t.until).toISOString(), by: t.by }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/takeover',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: "The session's chats the bot stays out of now, with until when and who took them over",
      request: { query: z.object({ sessionId: z.string().trim().min(1).max(100) }) },
      responses: {
        200: json(z.object({ success: z.literal(true), sessionId: z.string(), paused: z.array(Paused) })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const session = await requireSession(tenant, c.req.valid('query').sessionId);
      const paused = (await listTakeovers(tenant, session.sessionId)).map(view);
      return c.json({ success: true as const, sessionId: session.sessionId, paused }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/takeover/minutes',
      tags,
      security: bearer,
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
      responses: {
        200: json(
          z.object({ success: z.literal(true), sessionKey: z.string(), minutes: z.number().nullable() }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { minutes, sessionKey = GLOBAL_KEY } = c.req.valid('json');
      await setTakeoverMinutes(c.get('auth').tenant, sessionKey, minutes ?? undefined);
      return c.json({ success: true as const, sessionKey, minutes }, 200);
    },
  );
  return r;
}
