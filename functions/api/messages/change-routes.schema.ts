import { z } from '@hono/zod-openapi';
import { actionRoute, SessionRef } from '../commands/schemas.ts';

/**
 * The definitions of the routes of change-routes.ts: their schemas, which also make /openapi.json.
 */

const MessageRef = z.string().trim().min(1).max(128).openapi({ description: 'A message id of this session' });

const EditBody = z.object({
  sessionId: SessionRef,
  messageId: MessageRef,
  text: z.string().min(1).max(4096).openapi({ description: 'The new text (a media message: its caption)' }),
});

const DeleteBody = z.object({
  sessionId: SessionRef,
  messageId: MessageRef,
  forEveryone: z.boolean().default(false).openapi({
    description:
      "true: revoke it for everyone in the chat (a message the session sent); false (default): remove it from this service's history only",
  }),
});

export const editRoute = actionRoute(
  '/edit',
  'Edit the text or caption of a message the session sent',
  EditBody,
);

export const deleteRoute = actionRoute(
  '/delete',
  'Delete a message, for everyone or from history',
  DeleteBody,
);
