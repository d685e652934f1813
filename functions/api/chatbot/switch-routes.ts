import { tenantProfile } from '#shared/chatbot/knowledge';
import { GLOBAL_KEY, PROFILE_NAMES, sessionKeysOf } from '#shared/chatbot/session-keys';
import { readSwitches, setChatbotEnabled, setPureExtractor, setVoiceReplies } from '#shared/chatbot/switches';
import { router } from '#shared/http/context';
import { findSession } from '#shared/sessions/repository';
import { keySwitchRoute, switchesRoute, toggleRoute } from './switch-routes.schema.ts';

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

  r.openapi(switchesRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { sessionKey } = c.req.valid('query');
    const keys = await keysOf(tenant, sessionKey);
    return c.json({ success: true as const, sessionKey, keys, ...(await readSwitches(tenant, keys)) }, 200);
  });

  r.openapi(toggleRoute, async (c) => {
    const { mobid: sessionKey, enabled } = c.req.valid('json');
    await setChatbotEnabled(c.get('auth').tenant, sessionKey, enabled);
    const message = enabled
      ? `Chatbot enabled for ${sessionKey}: the assistant answers automatically.`
      : `Chatbot paused for ${sessionKey}: the assistant is paused (static rules still answer unless pure extractor mode is on).`;
    return c.json({ status: 'success' as const, message, sessionKey, enabled }, 200);
  });

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

/** A switch of a session key at `o.path`, answering `o.message`. */
function keySwitch(
  r: ReturnType<typeof router>,
  o: {
    path: string;
    summary: string;
    set: (tenantId: string, key: string, enabled: boolean) => Promise<void>;
    message: (enabled: boolean, key: string) => string;
  },
) {
  r.openapi(keySwitchRoute(o.path, o.summary), async (c) => {
    const { enabled, sessionKey = GLOBAL_KEY } = c.req.valid('json');
    await o.set(c.get('auth').tenant, sessionKey, enabled);
    return c.json(
      { success: true as const, message: o.message(enabled, sessionKey), enabled, sessionKey },
      200,
    );
  });
}
