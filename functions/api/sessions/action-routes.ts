import { router } from '#shared/http/context';
import { serveAction } from '../commands/action.ts';
import { groupsRoute, pinRoute, presenceRoute, statusRoute } from './action-routes.schema.ts';

/** Chat pin, presence, status stories and group management; mounted inside `/api/sessions`. */
export function sessionActionRoutes() {
  const r = router();
  serveAction(r, pinRoute, (b) => ({
    kind: 'pin',
    chatId: b.chatId,
    pin: b.pin,
  }));
  serveAction(r, presenceRoute, (b) => ({
    kind: 'presence',
    chatId: b.chatId,
    state: b.state,
  }));
  serveAction(r, statusRoute, (b) => ({
    kind: 'status',
    type: b.type,
    content: b.content,
    backgroundColor: b.backgroundColor,
    ...(b.audience?.length ? { audience: b.audience } : {}),
  }));
  serveAction(r, groupsRoute, (b) => ({
    kind: 'group',
    action: b.action,
    groupId: b.groupId,
    subject: b.subject,
    description: b.description,
    participants: b.participants,
  }));
  return r;
}
