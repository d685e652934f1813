import type { z } from '@hono/zod-openapi';
import { maskUrl } from '#shared/http/mask-url';
import type { Delivery } from '#shared/webhooks/repository';
import type { DeliveryView } from './delivery-routes.schema.ts';

/**
 * A webhook delivery as the tenant sees it, wherever it is shown (the delivery routes, the MCP
 * `webhooks://deliveries` resource): the URL masked as the webhook config shows it (a token in its
 * query string is not shown again), the payload parsed, no internal claim.
 */
export function deliveryView(d: Delivery): z.infer<typeof DeliveryView> {
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
    attemptLog: (d.attemptLog ?? []).map((a) => ({ ...a, url: a.url ? maskUrl(a.url) : a.url })),
    payload,
  };
}
