import { env } from '../config/env.ts';
import { RateLimitedError } from '../http/errors.ts';

/**
 * The caps on open SSE streams in this process: over all tenants and per tenant (the tenant stream
 * and the extraction stream count together). A portal id is a bearer secret anyone holding it can
 * use without credentials, so without a cap one party could open streams until the process starves
 * everyone else (docs/events.md, "Fair sharing"). Counted per process: each API process and
 * connection host serving streams applies the caps to its own clients.
 */

/** A refused client retries after this long (the stream's own reconnect delay is 3 s). */
export const STREAM_RETRY_AFTER_S = 5;

let total = 0;
const perTenant = new Map<string, number>();

/**
 * Counts one more stream of `tenantId`, or throws `RateLimitedError` (429) when a cap is reached.
 * Answers the function that releases it (once, however often it is called).
 */
export function admitStream(tenantId: string): () => void {
  const { SSE_MAX_CONNECTIONS, SSE_MAX_CONNECTIONS_PER_TENANT } = env();
  const mine = perTenant.get(tenantId) ?? 0;
  if (mine >= SSE_MAX_CONNECTIONS_PER_TENANT)
    throw new RateLimitedError(
      `this tenant has ${mine} streams open here, the most allowed (SSE_MAX_CONNECTIONS_PER_TENANT)`,
      STREAM_RETRY_AFTER_S,
    );
  if (total >= SSE_MAX_CONNECTIONS)
    throw new RateLimitedError(
      'this server has as many streams open as it takes (SSE_MAX_CONNECTIONS)',
      STREAM_RETRY_AFTER_S,
    );
  total++;
  perTenant.set(tenantId, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    total--;
    const left = (perTenant.get(tenantId) ?? 1) - 1;
    if (left > 0) perTenant.set(tenantId, left);
    else perTenant.delete(tenantId);
  };
}

/** Streams open in this process, overall and for one tenant (health, tests). */
export function openStreams(tenantId?: string): number {
  return tenantId === undefined ? total : (perTenant.get(tenantId) ?? 0);
}
