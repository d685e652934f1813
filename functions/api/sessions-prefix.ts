import { router } from '#shared/http/context';
import { requireAuth } from './auth/middleware.ts';
import { contactsExportRoutes } from './contacts-export/routes.ts';
import { groupsExportRoutes } from './leads/groups-export-routes.ts';
import { leadRoutes } from './leads/routes.ts';
import { sessionActionRoutes } from './sessions/action-routes.ts';
import { messageMediaRoutes } from './sessions/media-routes.ts';
import { sessionRoutes } from './sessions/routes.ts';
import { usageRoutes } from './usage/routes.ts';

/**
 * Everything under `/api/sessions`. Fixed paths (`/usage`, `/pin`, …) are mounted before the
 * `/{sessionId}` routes, here and only here: a fixed word is never taken for a session id.
 * Several resources share the prefix (usage, leads, exports), so their assembly sits beside
 * app.ts and not in `sessions/`: `usage/` names a session by `sessions/identifier.ts`, and
 * `sessions/` imports nothing from `usage/`.
 */
export function sessionsApi() {
  const r = router();
  r.use('*', requireAuth);
  r.route('/usage', usageRoutes());
  r.route('/leads', leadRoutes());
  r.route('/contacts/export', contactsExportRoutes());
  r.route('/groups/export', groupsExportRoutes());
  r.route('/', sessionActionRoutes());
  r.route('/', messageMediaRoutes());
  r.route('/', sessionRoutes());
  return r;
}
