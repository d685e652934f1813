import type { Router } from '../http/context.ts';
import { cloudRoutes } from './cloud-routes.ts';
import { sendRoutes } from './send-routes.ts';
import { uploadRoutes } from './upload-routes.ts';

/** Every send path: native, Cloud-API-compatible, upload-and-send. */
export function messageRouters(): Router[] {
  return [sendRoutes(), uploadRoutes(), cloudRoutes()];
}
