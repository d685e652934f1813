import { createRoute, z } from '@hono/zod-openapi';
import { bearer, ErrorSchema, errorResponses, json } from '#shared/http/schemas';
import { IdempotencyHeaders } from './idempotency.ts';
import { SendBody } from './send-schema.ts';

/**
 * The definitions of the routes of send-routes.ts: their schemas, which also make /openapi.json.
 */

export const Accepted = z
  .object({
    success: z.literal(true),
    messageId: z.string(),
    status: z.literal('queued'),
    sessionId: z.string(),
    to: z.string(),
  })
  .openapi('SendAccepted');

export const sendErrorResponses = {
  ...errorResponses,
  413: json(ErrorSchema, 'Upload too large'),
  422: json(ErrorSchema, 'Session not READY'),
  429: json(ErrorSchema, 'Monthly quota used up (see Retry-After)'),
  503: json(ErrorSchema, 'Could not be queued'),
} as const;

export const sendRoute = createRoute({
  method: 'post',
  path: '/send',
  tags: ['messages'],
  security: bearer,
  summary:
    'Send a text, media, voice, template, buttons, location, contact or poll message (accepted asynchronously)',
  request: { headers: IdempotencyHeaders, body: { content: { 'application/json': { schema: SendBody } } } },
  responses: { 202: json(Accepted, 'Accepted and queued'), ...sendErrorResponses },
});
