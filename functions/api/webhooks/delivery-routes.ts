import { router } from '#shared/http/context';
import { ConflictError, NotFoundError } from '#shared/http/errors';
import { requireSession } from '#shared/sessions/repository';
import { STALE_CLAIM_MS, sendJob } from '#shared/webhooks/job';
import { getDelivery, listDeliveries, reopenForRedelivery } from '#shared/webhooks/repository';
import { deliveryRoute, listDeliveriesRoute, redeliverRoute } from './delivery-routes.schema.ts';
import { deliveryView } from './delivery-view.ts';

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
    return c.json({ success: true as const, count: items.length, deliveries: items.map(deliveryView) }, 200);
  });

  r.openapi(deliveryRoute, async (c) => {
    const { id } = c.req.valid('param');
    const d = await getDelivery(c.get('auth').tenant, id);
    if (!d) throw new NotFoundError(`delivery ${id} not found`);
    return c.json({ success: true as const, delivery: deliveryView(d) }, 200);
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
    return c.json(
      { success: true as const, message: 'redelivery queued', delivery: deliveryView(reopened) },
      200,
    );
  });
  return r;
}
