import type { Router } from '../http/context.ts';
import { formattedRoutes } from './formatted-routes.ts';
import { liveRoutes } from './live-routes.ts';
import { viewRoutes } from './view-routes.ts';

/** The three read views over stored messages. */
export function historyRouters(): Router[] {
  return [viewRoutes(), formattedRoutes(), liveRoutes()];
}
