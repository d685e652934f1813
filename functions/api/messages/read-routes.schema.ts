import { z } from '@hono/zod-openapi';
import { READ_MAX } from '#shared/commands/types';
import { actionRoute, SessionRef } from '../commands/schemas.ts';
import { HistoryChat } from '../history/query.ts';

/**
 * The definitions of the routes of read-routes.ts: their schemas, which also make /openapi.json.
 */

const ReadBody = z.object({
  sessionId: SessionRef,
  chatId: HistoryChat,
  messageIds: z
    .array(z.string().trim().min(1).max(128))
    .min(1)
    .max(READ_MAX)
    .optional()
    .openapi({
      description: `Received messages of the chat to mark read (at most ${READ_MAX}); default: the chat's latest ${READ_MAX} received messages`,
    }),
});

export const readRoute = actionRoute(
  '/read',
  'Mark received messages of a chat read (voice notes played)',
  ReadBody,
);
