import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { SessionRef } from '../commands/schemas.ts';

/**
 * The definitions of the routes of poll-routes.ts: their schemas, which also make /openapi.json.
 */

const Tally = z
  .object({
    success: z.literal(true),
    messageId: z.string(),
    sessionId: z.string(),
    chatId: z.string(),
    question: z.string(),
    multiple: z.boolean(),
    options: z.array(
      z.object({
        option: z.string(),
        votes: z.number().int(),
        voters: z.array(z.string()).openapi({ description: 'Digits, or `<lid>@lid`' }),
      }),
    ),
    voters: z.number().int().openapi({ description: 'How many contacts have a vote' }),
  })
  .openapi('PollTally');

export const pollRoute = createRoute({
  method: 'get',
  path: '/{messageId}/poll',
  tags: ['messages'],
  security: bearer,
  summary: "A poll's tally: each option with its voters' current votes",
  request: {
    params: z.object({
      messageId: z
        .string()
        .trim()
        .min(1)
        .max(128)
        .openapi({ param: { name: 'messageId', in: 'path' }, description: 'The poll message id' }),
    }),
    query: z.object({
      sessionId: SessionRef.optional().openapi({
        description:
          "The poll's session (mobid, number or id); without it, every session of the tenant is looked in",
      }),
    }),
  },
  responses: { 200: json(Tally), ...errorResponses },
});
