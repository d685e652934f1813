import { createRoute, z } from '@hono/zod-openapi';
import { CHECK_MAX } from '#shared/commands/types';
import { router } from '#shared/http/context';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { phoneNumberInput } from '#shared/phone/schema';
import { requireAuth } from '../auth/middleware.ts';
import { accepted } from '../commands/action.ts';
import { Accepted, SessionRef } from '../commands/schemas.ts';
import { requireReadySession } from '../sessions/service.ts';
import { CHECK_WAIT_MS, checkNumbers } from './check.ts';

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

const route = createRoute({
  method: 'post',
  path: '/check',
  tags: ['session actions'],
  security: bearer,
  summary: 'Which numbers have an account on the network',
  description: `Asks the network through the session. Answered at once when the network answers within ${CHECK_WAIT_MS / 1000} s; otherwise 202 with the command id, whose result (\`numbers\`) appears at /api/commands/{id}.`,
  request: { body: { content: { 'application/json': { schema: CheckBody } } } },
  responses: {
    200: json(z.object({ success: z.literal(true), commandId: z.string(), numbers: z.array(CheckResult) })),
    202: json(Accepted, 'The network has not answered yet; the result appears at /api/commands/{id}'),
    ...errorResponses,
    503: json(
      z.object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
      'The network refused or did not answer the check (UPSTREAM_UNAVAILABLE)',
    ),
  },
});

/** Mounted at `/api/contacts`. */
export function contactRoutes() {
  const r = router();
  r.use('/check', requireAuth);
  r.openapi(route, async (c) => {
    const b = c.req.valid('json');
    const raw = (await c.req.json().catch(() => ({}))) as { numbers?: unknown[] };
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const done = await checkNumbers(session, b.numbers, raw.numbers);
    if (done.status === 'pending') return c.json(accepted(done.commandId), 202);
    return c.json({ success: true as const, commandId: done.commandId, numbers: done.numbers }, 200);
  });
  return r;
}
