import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json } from '#shared/http/schemas';

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

/** A contact's digits or a group id (`<digits>@g.us` or bare digits with a dash). */
export const ChatRef = z
  .string()
  .trim()
  .min(3)
  .max(100)
  .regex(/^(\+?[\d\s-]+|[\d-]+@g\.us)$/, 'a phone number or <id>@g.us');

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
