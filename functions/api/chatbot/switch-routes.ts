import { createRoute, z } from '@hono/zod-openapi';
import { tenantProfile } from '#shared/chatbot/knowledge';
import { GLOBAL_KEY, PROFILE_NAMES, sessionKeysOf } from '#shared/chatbot/session-keys';
import { readSwitches, setChatbotEnabled, setPureExtractor, setVoiceReplies } from '#shared/chatbot/switches';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { findSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';

const tags = ['chatbot'];

/** A session key as given, `*` meaning `global` (every session of the tenant). */
export const SwitchKey = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^#\s]+$/, 'a session key has no `#` and no spaces')
  .transform((k) => (k === '*' ? GLOBAL_KEY : k));

/**
 * The keys whose switches apply to `key`, most specific first: a key naming one of the tenant's
 * sessions (id, mobid or number) expands to that session's keys (mobile, id, mobid, profile, global).
 */
async function keysOf(tenantId: string, key: string): Promise<string[]> {
  if (key === GLOBAL_KEY) return [GLOBAL_KEY];
  if ((PROFILE_NAMES as readonly string[]).includes(key)) return [key, GLOBAL_KEY];
  const [s, profile] = await Promise.all([findSession(tenantId, key), tenantProfile(tenantId)]);
  const keys = s
    ? sessionKeysOf({ sessionId: s.sessionId, mobid: s.mobid, mobile: s.mobile_number }, profile)
    : sessionKeysOf({ sessionId: key }, profile);
  return keys.includes(key) ? keys : [key, ...keys];
}

/** `/switches`, `/toggle` and `/pure-extractor` (mounted under `/api/v1/chatbot`). */
export function switchRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/switches',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'The switches in force for a session key (the most specific key with a value wins)',
      request: { query: z.object({ sessionKey: SwitchKey.default(GLOBAL_KEY) }) },
      responses: {
        200: json(
          z.object({
            success: z.literal(true),
            sessionKey: z.string(),
            keys: z.array(z.string()).openapi({ description: 'the keys consulted, most specific first' }),
            chatbotEnabled: z.boolean(),
            pureExtractor: z.boolean(),
            extractionEnabled: z.boolean(),
            voiceReplies: z.boolean(),
            takeoverMinutes: z.number().openapi({ description: 'how long a human takeover lasts' }),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const { sessionKey } = c.req.valid('query');
      const keys = await keysOf(tenant, sessionKey);
      return c.json({ success: true as const, sessionKey, keys, ...(await readSwitches(tenant, keys)) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/toggle',
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: 'Enable or pause the AI chatbot for a session key (answers `status`, not `success`)',
      request: {
        body: {
          content: {
            'application/json': {
              schema: z.object({
                mobid: SwitchKey.openapi({
                  description:
                    'session key: phone, session id, mobid, profile, or `global`/`*` for all sessions',
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
        ...errorResponses,
      },
    }),
    async (c) => {
      const { mobid: sessionKey, enabled } = c.req.valid('json');
      await setChatbotEnabled(c.get('auth').tenant, sessionKey, enabled);
      const message = enabled
        ? `Chatbot enabled for ${sessionKey}: the assistant answers automatically.`
        : `Chatbot paused for ${sessionKey}: the assistant is paused (static rules still answer unless pure extractor mode is on).`;
      return c.json({ status: 'success' as const, message, sessionKey, enabled }, 200);
    },
  );

  keySwitch(r, {
    path: '/pure-extractor',
    summary: 'Pure extractor mode: no automatic replies at all, tenant-wide or for one session key',
    set: setPureExtractor,
    message: (on, key) =>
      on
        ? `Pure extractor mode on for ${key}: the assistant is paused; messages are still stored, streamed and forwarded.`
        : `Pure extractor mode off for ${key}: automatic replies resume.`,
  });
  keySwitch(r, {
    path: '/voice-replies',
    summary: 'Answer voice notes with voice notes (speech synthesis), tenant-wide or for one session key',
    set: setVoiceReplies,
    message: (on, key) =>
      on
        ? `Voice replies on for ${key}: a customer who writes by voice is answered by voice.`
        : `Voice replies off for ${key}: every answer is text.`,
  });
  return r;
}

/** `POST <path>` `{enabled, sessionKey?}` (default `global`) → `{success, message, enabled, sessionKey}`. */
function keySwitch(
  r: ReturnType<typeof router>,
  o: {
    path: string;
    summary: string;
    set: (tenantId: string, key: string, enabled: boolean) => Promise<void>;
    message: (enabled: boolean, key: string) => string;
  },
) {
  r.openapi(
    createRoute({
      method: 'post',
      path: o.path,
      tags,
      security: bearer,
      middleware: [requireAuth] as const,
      summary: o.summary,
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
        200: json(
          z.object({
            success: z.literal(true),
            message: z.string(),
            enabled: z.boolean(),
            sessionKey: z.string(),
          }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { enabled, sessionKey = GLOBAL_KEY } = c.req.valid('json');
      await o.set(c.get('auth').tenant, sessionKey, enabled);
      return c.json(
        { success: true as const, message: o.message(enabled, sessionKey), enabled, sessionKey },
        200,
      );
    },
  );
}
