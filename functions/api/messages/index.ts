import { router } from '#shared/http/context';
import { changeRoutes } from './change-routes.ts';
import { cloudMediaRoutes } from './cloud-media-routes.ts';
import { cloudRoutes } from './cloud-routes.ts';
import { reactionRoutes } from './reaction-routes.ts';
import { readRoutes } from './read-routes.ts';
import { sendRoutes } from './send-routes.ts';
import { uploadRoutes } from './upload-routes.ts';

/**
 * Everything under `/api/messages`: native send, reaction, read receipts, edit and delete, upload-and-send, then the
 * Cloud-API-compatible paths keyed by sender (`/{phoneNumberId}/…`), which answer errors in the
 * Cloud API's shape and so apply authentication themselves.
 */
export function messagesApi() {
  const r = router();
  r.route('/', sendRoutes());
  r.route('/', reactionRoutes());
  r.route('/', readRoutes());
  r.route('/', changeRoutes());
  r.route('/', uploadRoutes());
  r.route('/', cloudRoutes());
  r.route('/', cloudMediaRoutes());
  return r;
}
