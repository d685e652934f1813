import { router } from '#shared/http/context';
import { exportRows } from '../contacts-export/rows.ts';
import { jsonEnvelopeStream, jsonStreamHeaders } from '../exports/json-stream.ts';
import { targetSessions } from './contacts-source.ts';
import { leadsRoute } from './routes.schema.ts';

/** Mounted at `/api/sessions/leads`, before the `/{sessionId}` routes. */
export function leadRoutes() {
  const r = router();
  r.openapi(leadsRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const q = c.req.valid('query');
    const sessions = await targetSessions(tenant, { sessionIds: q.sessionIds, mobile: q.mobile });
    const extractedAt = new Date().toISOString();
    const body = jsonEnvelopeStream(
      { success: true, targetSessions: sessions },
      'contacts',
      exportRows(tenant, sessions, extractedAt),
      'totalScraped',
    );
    // Streamed: the body is the declared JSON, written row by row (the typed c.json would buffer it).
    return c.body(body, 200, jsonStreamHeaders) as never;
  });
  return r;
}
