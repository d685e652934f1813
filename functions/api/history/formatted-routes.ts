import { router } from '#shared/http/context';
import { requireSession } from '#shared/sessions/repository';
import { requireAuth } from '../auth/middleware.ts';
import { chatHistory, latestPerChat } from './formatted.ts';
import { formattedRoute } from './formatted-routes.schema.ts';

export function formattedRoutes() {
  const r = router();
  r.use('/formatted', requireAuth);
  r.openapi(formattedRoute, async (c) => {
    const tenantId = c.get('auth').tenant;
    const q = c.req.valid('query');
    const session = await requireSession(tenantId, q.mobid);

    if (!q.chatId) {
      const messages = await latestPerChat(session, q.limit);
      return c.json({ success: true as const, chatId: 'all', total: messages.length, messages }, 200);
    }

    const { chatId, messages } = await chatHistory(session, q.chatId, q.limit);
    return c.json({ success: true as const, chatId, total: messages.length, messages }, 200);
  });
  return r;
}
