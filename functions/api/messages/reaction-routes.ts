import { z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { requireAuth } from '../auth/middleware.ts';
import { serveAction } from '../commands/action.ts';
import { actionRoute, ChatRef, SessionRef } from '../commands/schemas.ts';

const ReactionBody = z.object({
  sessionId: SessionRef,
  to: ChatRef,
  messageId: z.string().min(1).max(128),
  emoji: z.string().max(16).openapi({ description: 'An emoji; an empty string removes the reaction' }),
});

/** `POST /reaction`, mounted inside `/api/messages`: a session action, not a message of its own. */
export function reactionRoutes() {
  const r = router();
  r.use('/reaction', requireAuth);
  serveAction(
    r,
    actionRoute('/reaction', 'Send or remove an emoji reaction on a message', ReactionBody),
    (b) => ({ kind: 'react', to: b.to, messageId: b.messageId, emoji: b.emoji }),
  );
  return r;
}
