import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { ConflictError, NotFoundError } from '#shared/http/errors';
import { maskUrl } from '#shared/http/mask-url';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireSession } from '#shared/sessions/repository';
import { STALE_CLAIM_MS, sendJob } from '#shared/webhooks/job';
import {
  DELIVERY_STATUSES,
  type Delivery,
  getDelivery,
  listDeliveries,
  reopenForRedelivery,
} from '#shared/webhooks/repository';

const Attempt = z.object({
  round: z.number().int(),
  attempt: z.number().int(),
  at: z.string(),
  url: z.string().nullable(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  outcome: z.enum(['delivered', 'retry', 'failed']),
});

const DeliveryView = z
  .object({
    id: z.string(),
    event: z.string(),
    sessionId: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    round: z.number().int().openapi({ description: '0, then +1 per redelivery' }),
    attempts: z.number().int().openapi({ description: 'Attempts made in this round' }),
    url: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    deliveredAt: z.string().nullable(),
    failedAt: z.string().nullable(),
    attemptLog: z.array(Attempt),
    payload: z.unknown(),
  })
  .openapi('WebhookDelivery');

function view(d: Delivery): z.infer<typeof DeliveryView> {
  let payload: unknown = null;
  try {
    payload = JSON.parse(d.body);
  } catch {}
  return {
    id: d.id,
    event: d.event,
    sessionId: d.sessionId,
    status: d.status,
    round: d.round,
    attempts: d.attempts,
    url: d.url ? maskUrl(d.url) : null,
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    nextAttemptAt: d.nextAttemptAt ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    deliveredAt: d.deliveredAt ?? null,
    failedAt: d.failedAt ?? null,
    attemptLog: d.attemptLog ?? [],
    payload,
  };
}

const IdParam = z.object({
  id: z
    .string()
    .regex(/^dlv_[0-9a-f]{24}$/, 'a delivery id (dlv_…)')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const tags = ['webhooks'];

/** Delivery history and redelivery. Mounted by `webhookRoutes`, behind its auth. */
export function deliveryRoutes() {
  const r = router();

  r.openapi(
    createRoute({
      method: 'get',
      path: '/deliveries',
      tags,
      security: bearer,
      summary: 'Webhook deliveries, newest first, each with its attempts',
      request: {
        query: z.object({
          status: z.enum(DELIVERY_STATUSES).optional(),
          sessionId: z.string().min(1).max(100).optional(),
          event: z
            .string()
            .regex(/^[a-z_]+(\.[a-z_]+)*$/, 'an event name such as `message.inbound`')
            .max(50)
            .optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
      },
      responses: {
        200: json(
          z.object({ success: z.literal(true), count: z.number().int(), deliveries: z.array(DeliveryView) }),
        ),
        ...errorResponses,
      },
    }),
    async (c) => {
      const tenantId = c.get('auth').tenant;
      const q = c.req.valid('query');
      const sessionId = q.sessionId ? (await requireSession(tenantId, q.sessionId)).sessionId : undefined;
      const items = await listDeliveries(tenantId, {
        status: q.status,
        sessionId,
        event: q.event,
        limit: q.limit,
      });
      return c.json({ success: true as const, count: items.length, deliveries: items.map(view) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/deliveries/{id}',
      tags,
      security: bearer,
      summary: 'One webhook delivery',
      request: { params: IdParam },
      responses: {
        200: json(z.object({ success: z.literal(true), delivery: DeliveryView })),
        ...errorResponses,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const d = await getDelivery(c.get('auth').tenant, id);
      if (!d) throw new NotFoundError(`delivery ${id} not found`);
      return c.json({ success: true as const, delivery: view(d) }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/deliveries/{id}/redeliver',
      tags,
      security: bearer,
      summary:
        'Queue an undelivered delivery again (failed, pending or retrying): a new round of up to 10 attempts with the current configuration, starting now',
      request: { params: IdParam },
      responses: {
        200: json(z.object({ success: z.literal(true), message: z.string(), delivery: DeliveryView })),
        ...errorResponses,
        409: {
          description: 'The delivery was delivered already, or one of its attempts is under way',
          content: errorResponses[404].content,
        },
      },
    }),
    async (c) => {
      const tenantId = c.get('auth').tenant;
      const { id } = c.req.valid('param');
      const reopened = await reopenForRedelivery(tenantId, id, Date.now() - STALE_CLAIM_MS);
      if (!reopened) {
        const d = await getDelivery(tenantId, id);
        if (!d) throw new NotFoundError(`delivery ${id} not found`);
        throw new ConflictError(
          d.status === 'delivered'
            ? `delivery ${id} is delivered already`
            : `an attempt of delivery ${id} is under way; try again once it has ended`,
        );
      }
      await sendJob({ tenantId, deliveryId: id, round: reopened.round, attempt: 1 });
      return c.json({ success: true as const, message: 'redelivery queued', delivery: view(reopened) }, 200);
    },
  );
  return r;
}
