import type { z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { ConflictError, NotFoundError } from '#shared/http/errors';
import { maskUrl } from '#shared/http/mask-url';
import { requireSession } from '#shared/sessions/repository';
import { STALE_CLAIM_MS, sendJob } from '#shared/webhooks/job';
import { type Delivery, getDelivery, listDeliveries, reopenForRedelivery } from '#shared/webhooks/repository';
import {
  type DeliveryView,
  deliveryRoute,
  listDeliveriesRoute,
  redeliverRoute,
} from './delivery-routes.schema.ts';

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

/** Delivery history and redelivery. Mounted by `webhookRoutes`, behind its auth. */
export function deliveryRoutes() {
  const r = router();

  r.openapi(listDeliveriesRoute, async (c) => {
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
  });

  r.openapi(deliveryRoute, async (c) => {
    const { id } = c.req.valid('param');
    const d = await getDelivery(c.get('auth').tenant, id);
    if (!d) throw new NotFoundError(`delivery ${id} not found`);
    return c.json({ success: true as const, delivery: view(d) }, 200);
  });

  r.openapi(redeliverRoute, async (c) => {
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
  });
  return r;
}
