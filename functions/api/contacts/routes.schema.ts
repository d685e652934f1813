import { createRoute, z } from '@hono/zod-openapi';
import { CHECK_MAX } from '#shared/commands/types';
import { bearer, errorResponses, json, ok } from '#shared/http/schemas';
import { phoneNumberInput } from '#shared/phone/schema';
import { Accepted, SessionRef } from '../commands/schemas.ts';
import { CHECK_WAIT_MS } from './check.ts';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

const CheckBody = z.object({
  sessionId: SessionRef,
  numbers: z
    .array(phoneNumberInput())
    .min(1)
    .max(CHECK_MAX)
    .openapi({ description: `1–${CHECK_MAX} phone numbers with country code, in any common notation` }),
});

const CheckResult = z
  .object({
    input: z.string().openapi({ description: 'The number as given' }),
    number: z.string().openapi({ description: 'Its digits' }),
    exists: z.boolean().openapi({ description: 'Whether it has an account on the network' }),
    jid: z.string().nullable().openapi({
      description:
        "The account's id (`<digits>@s.whatsapp.net`); its digits may differ from the number asked",
    }),
  })
  .openapi('NumberCheck');

export const checkRoute = createRoute({
  method: 'post',
  path: '/check',
  tags: ['session actions'],
  security: bearer,
  summary: 'Which numbers have an account on the network',
  description: `Asks the network through the session. Answered at once when the network answers within ${CHECK_WAIT_MS / 1000} s; otherwise 202 with the command id, whose result (\`numbers\`) appears at /api/commands/{id}.`,
  request: { body: { content: { 'application/json': { schema: CheckBody } } } },
  responses: {
    200: ok({ commandId: z.string(), numbers: z.array(CheckResult) }),
    202: json(Accepted, 'The network has not answered yet; the result appears at /api/commands/{id}'),
    ...errorResponses,
    503: json(
      z.object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
      'The network refused or did not answer the check (UPSTREAM_UNAVAILABLE)',
    ),
  },
});
