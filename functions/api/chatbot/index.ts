import { router } from '#shared/http/context';
import { documentRoutes } from './document-routes.ts';
import { extractionRoutes } from './extraction-routes.ts';
import { intentsRoutes } from './intents-routes.ts';
import { BRAIN, PROMPT } from './knowledge-documents.ts';
import { rulesRoutes } from './rules-routes.ts';
import { switchRoutes } from './switch-routes.ts';
import { takeoverRoutes } from './takeover-routes.ts';
import { templatesRoutes } from './templates-routes.ts';
import { tryRoutes } from './try-routes.ts';

/**
 * Everything under `/api/v1/chatbot`. Each route carries its own `requireAuth` (no router-wide
 * middleware), because some paths (the profile templates) are served without credentials.
 */
export function chatbotApi() {
  const r = router();
  r.route('/', rulesRoutes());
  r.route('/', switchRoutes());
  r.route('/', takeoverRoutes());
  r.route('/', documentRoutes(BRAIN));
  r.route('/', documentRoutes(PROMPT));
  r.route('/', intentsRoutes());
  r.route('/', templatesRoutes());
  r.route('/', extractionRoutes());
  r.route('/', tryRoutes());
  return r;
}
