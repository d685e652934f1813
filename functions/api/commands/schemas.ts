import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { chatInput } from '#shared/phone/schema';

export const Accepted = z.object({
  success: z.literal(true),
  commandId: z.string(),
  status: z.literal('pending'),
});

/** A session identifier in an action body: session id, mobid or mobile number. */
export const SessionRef = z
  .string()
  .min(1)
  .max(100)
  .openapi({ description: 'Session id, mobid or mobile number' });

/** A chat to act on → the contact's digits, or the group's `<id>@g.us`. */
export const ChatRef = chatInput().openapi({ description: 'A phone number with country code, or <id>@g.us' });

/** A POST that accepts a session action (202 with the command id). */
export const actionRoute = <T extends z.ZodType>(path: string, summary: string, schema: T) =>
  createRoute({
    method: 'post',
    path,
    tags: ['session actions'],
    security: bearer,
    summary,
    request: { body: { content: { 'application/json': { schema } } } },
    responses: {
      202: json(Accepted, 'Accepted; the result appears at /api/commands/{id}'),
      ...errorResponses,
    },
  });
