import type { Router } from './context.ts';
import { sessionRoutes } from '../sessions/routes.ts';
import { streamRoutes } from '../stream/routes.ts';
import { webhookRoutes } from '../webhooks/routes.ts';

/**
 * Every domain's router, mounted at the root. Order matters where paths overlap: static paths
 * (`/api/sessions/usage`) must come before parameterised ones (`/api/sessions/{sessionId}`).
 */
export function domainRouters(): Router[] {
  return [sessionRoutes(), webhookRoutes(), streamRoutes()];
}
