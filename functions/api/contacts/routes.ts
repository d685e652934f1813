import { router } from '#shared/http/context';
import { requireAuth } from '../auth/middleware.ts';
import { accepted } from '../commands/action.ts';
import { requireReadySession } from '../sessions/service.ts';
import { checkNumbers } from './check.ts';
import { checkRoute } from './routes.schema.ts';

/** Mounted at `/api/contacts`. */
export function contactRoutes() {
  const r = router();
  r.use('/check', requireAuth);
  r.openapi(checkRoute, async (c) => {
    const b = c.req.valid('json');
    const raw = (await c.req.json().catch(() => ({}))) as { numbers?: unknown[] };
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const done = await checkNumbers(session, b.numbers, raw.numbers);
    if (done.status === 'pending') return c.json(accepted(done.commandId), 202);
    return c.json({ success: true as const, commandId: done.commandId, numbers: done.numbers }, 200);
  });
  return r;
}
