import { actionRoutes } from '../actions/routes.ts';
import { historyRouters } from '../history/routes.ts';
import { messageRouters } from '../messages/routes.ts';
import { usageRoutes } from '../quota/routes.ts';
import { sessionRoutes } from '../sessions/routes.ts';
import { streamRoutes } from '../stream/routes.ts';
import { templateRoutes } from '../templates/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';
import type { Router } from './context.ts';

/**
 * Every domain's router, mounted at the root. Order matters where paths overlap: static paths
 * (`/api/sessions/usage`) must come before parameterised ones (`/api/sessions/{sessionId}`).
 */
export function domainRouters(): Router[] {
  return [
    actionRoutes(),
    usageRoutes(),
    sessionRoutes(),
    webhookRoutes(),
    streamRoutes(),
    ...messageRouters(),
    templateRoutes(),
    ...historyRouters(),
  ];
}
