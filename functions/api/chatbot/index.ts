import { router } from '#shared/http/context';
import { rulesRoutes } from './rules-routes.ts';
import { switchRoutes } from './switch-routes.ts';

/**
 * Everything under `/api/v1/chatbot`. Each route carries its own `requireAuth` (no router-wide
 * middleware), because some paths (the profile templates) are served without credentials.
 */
export function chatbotApi() {
  const r = router();
  r.route('/', rulesRoutes());
  r.route('/', switchRoutes());
  return r;
}
