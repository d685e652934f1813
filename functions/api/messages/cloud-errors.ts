import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { cloudError } from './cloud-api.ts';

/**
 * Answers every error of a Cloud-API path, auth and validation included, in the Cloud API's shape
 * (mounted before `requireAuth`). `messaging_product` is echoed from a JSON body when it says `network`.
 */
export const cloudErrors: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.error) return;
  const raw = c.req.header('content-type')?.startsWith('multipart/')
    ? undefined
    : ((await c.req.json().catch(() => undefined)) as { messaging_product?: unknown } | undefined);
  const product = raw?.messaging_product === 'network' ? 'network' : 'whatsapp';
  const e = cloudError(c.error, c.get('requestId'), product);
  c.res = undefined;
  c.res = c.json(e.body, e.status, e.retryAfterSeconds ? { 'Retry-After': String(e.retryAfterSeconds) } : {});
};
