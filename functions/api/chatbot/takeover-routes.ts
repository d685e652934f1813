import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { setTakeoverMinutes } from '#shared/chatbot/switches';
import { listTakeovers, pauseChat, resumeChat, type Takeover } from '#shared/chatbot/takeover';
import { router } from '#shared/http/context';
import { requireSession } from '#shared/sessions/repository';
import { takeoverMinutesRoute, takeoverRoute, takeoversRoute } from './takeover-routes.schema.ts';

const view = (t: Takeover) => ({ chatId: t.chatId, until: new Date(t.until).toISOString(), by: t.by });

/** `/takeover` and `/takeover/minutes` (mounted under `/api/v1/chatbot`; docs/chatbot.md, "Human takeover"). */
export function takeoverRoutes() {
  const r = router();

  r.openapi(takeoverRoute, async (c) => {
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
  });

  r.openapi(takeoversRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const session = await requireSession(tenant, c.req.valid('query').sessionId);
    const paused = (await listTakeovers(tenant, session.sessionId)).map(view);
    return c.json({ success: true as const, sessionId: session.sessionId, paused }, 200);
  });

  r.openapi(takeoverMinutesRoute, async (c) => {
    const { minutes, sessionKey = GLOBAL_KEY } = c.req.valid('json');
    await setTakeoverMinutes(c.get('auth').tenant, sessionKey, minutes ?? undefined);
    return c.json({ success: true as const, sessionKey, minutes }, 200);
  });
  return r;
}
