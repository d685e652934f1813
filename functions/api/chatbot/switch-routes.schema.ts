import { z } from '@hono/zod-openapi';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { json, ok, routesTagged } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';

/**
 * The definitions of the chatbot switch routes (switch-routes.ts): their schemas, which also make
 * /openapi.json.
 */

const route = routesTagged('chatbot');

/** A session key as given, `*` meaning `global` (every session of the tenant). */
export const SwitchKey = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^#\s]+$/, 'a session key has no `#` and no spaces')
  .transform((k) => (k === '*' ? GLOBAL_KEY : k));

export const switchesRoute = route({
  method: 'get',
  path: '/switches',
  middleware: [requireAuth] as const,
  summary: 'The switches in force for a session key (the most specific key with a value wins)',
  request: { query: z.object({ sessionKey: SwitchKey.default(GLOBAL_KEY) }) },
  responses: {
    200: ok({
      sessionKey: z.string(),
      keys: z.array(z.string()).openapi({ description: 'the keys consulted, most specific first' }),
      chatbotEnabled: z.boolean(),
      pureExtractor: z.boolean(),
      extractionEnabled: z.boolean(),
      voiceReplies: z.boolean(),
      takeoverMinutes: z.number().openapi({ description: 'how long a human takeover lasts' }),
    }),
  },
});

export const toggleRoute = route({
  method: 'post',
  path: '/toggle',
  middleware: [requireAuth] as const,
  summary: 'Enable or pause the AI chatbot for a session key (answers `status`, not `success`)',
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            mobid: SwitchKey.openapi({
              description: 'session key: phone, session id, mobid, profile, or `global`/`*` for all sessions',
              example: 'global',
            }),
            enabled: z.boolean(),
          }),
        },
      },
    },
  },
  responses: {
    200: json(
      z.object({
        status: z.literal('success'),
        message: z.string(),
        sessionKey: z.string(),
        enabled: z.boolean(),
      }),
    ),
  },
});

/** `POST <path>` `{enabled, sessionKey?}` (default `global`) → `{success, message, enabled, sessionKey}`. */
export const keySwitchRoute = (path: string, summary: string) =>
  route({
    method: 'post',
    path,
    middleware: [requireAuth] as const,
    summary,
    request: {
      body: {
        content: {
          'application/json': {
            schema: z.object({
              enabled: z.boolean(),
              sessionKey: SwitchKey.optional().openapi({ description: 'default `global` (tenant-wide)' }),
            }),
          },
        },
      },
    },
    responses: {
      200: ok({ message: z.string(), enabled: z.boolean(), sessionKey: z.string() }),
    },
  });
