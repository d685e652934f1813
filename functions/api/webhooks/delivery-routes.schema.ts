import { z } from '@hono/zod-openapi';
import { errorResponses, ok, routesTagged } from '#shared/http/schemas';
import { DELIVERY_STATUSES } from '#shared/webhooks/repository';

/**
 * The definitions of the routes of delivery-routes.ts: their schemas, which also make /openapi.json.
 */

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

export const DeliveryView = z
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

const IdParam = z.object({
  id: z
    .string()
    .regex(/^dlv_[0-9a-f]{24}$/, 'a delivery id (dlv_…)')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const route = routesTagged('webhooks');

export const listDeliveriesRoute = route({
  method: 'get',
  path: '/deliveries',
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
  responses: { 200: ok({ count: z.number().int(), deliveries: z.array(DeliveryView) }) },
});

export const deliveryRoute = route({
  method: 'get',
  path: '/deliveries/{id}',
  summary: 'One webhook delivery',
  request: { params: IdParam },
  responses: { 200: ok({ delivery: DeliveryView }) },
});

export const redeliverRoute = route({
  method: 'post',
  path: '/deliveries/{id}/redeliver',
  summary:
    'Queue an undelivered delivery again (failed, pending or retrying): a new round of up to 10 attempts with the current configuration, starting now',
  request: { params: IdParam },
  responses: {
    200: ok({ message: z.string(), delivery: DeliveryView }),
    409: {
      description: 'The delivery was delivered already, or one of its attempts is under way',
      content: errorResponses[404].content,
    },
  },
});
