import { router } from '#shared/http/context';
import { requireAuth } from '../auth/middleware.ts';
import { contactsExportRoutes } from '../contacts-export/routes.ts';
import { groupsExportRoutes } from '../leads/groups-export-routes.ts';
import { leadRoutes } from '../leads/routes.ts';
import { usageRoutes } from '../usage/routes.ts';
import { sessionActionRoutes } from './action-routes.ts';
import { messageMediaRoutes } from './media-routes.ts';
import { sessionRoutes } from './routes.ts';

/**
 * Everything under `/api/sessions`. Fixed paths (`/usage`, `/pin`, …) are mounted before the
 * `/{sessionId}` routes, here and only here: a fixed word is never taken for a session id.
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
