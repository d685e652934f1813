import { createRoute, z } from '@hono/zod-openapi';
import { getCommand } from '#shared/commands/results';
import { CHECK_MAX, NumberCheck } from '#shared/commands/types';
import { router } from '#shared/http/context';
import { ServiceError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { phoneNumberInput } from '#shared/phone/schema';
import { requireAuth } from '../auth/middleware.ts';
import { acceptCommand } from '../commands/accept.ts';
import { Accepted, SessionRef } from '../commands/schemas.ts';
import { requireReadySession } from '../sessions/service.ts';

/** How long the API waits for the host's answer before it answers 202 with the command id. */
export const CHECK_WAIT_MS = 8_000;
const POLL_MS = 150;

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The command's record once it is no longer pending, or undefined after `CHECK_WAIT_MS`. */
async function outcome(tenantId: string, commandId: string) {
  const until = Date.now() + CHECK_WAIT_MS;
  while (Date.now() < until) {
    const cmd = await getCommand(tenantId, commandId);
    if (cmd && cmd.status !== 'pending') return cmd;
    await sleep(POLL_MS);
  }
  return undefined;
}

/** Mounted at `/api/contacts`. */
export function contactRoutes() {
  const r = router();
  r.use('/check', requireAuth);
  r.openapi(route, async (c) => {
    const b = c.req.valid('json');
    const raw = (await c.req.json().catch(() => ({}))) as { numbers?: unknown[] };
    const session = await requireReadySession(c.get('auth').tenant, b.sessionId);
    const numbers = [...new Set(b.numbers)];
    const { commandId } = await acceptCommand(session, { kind: 'check', numbers });
    const cmd = await outcome(session.tenantId, commandId);
    if (!cmd) return c.json({ success: true as const, commandId, status: 'pending' as const }, 202);
    if (cmd.status === 'failed') {
      throw new ServiceError(
        'UPSTREAM_UNAVAILABLE',
        `the network did not answer the check: ${cmd.error ?? 'unknown'}`,
      );
    }
    const answers = z.array(NumberCheck).parse(cmd.result?.numbers);
    const byNumber = new Map(answers.map((a) => [a.number, a]));
    const results = b.numbers.map((number, i) => {
      const a = byNumber.get(number);
      return {
        input: String(raw.numbers?.[i] ?? number),
        number,
        exists: a?.exists ?? false,
        jid: a?.jid ?? null,
      };
    });
    return c.json({ success: true as const, commandId, numbers: results }, 200);
  });
  return r;
}
