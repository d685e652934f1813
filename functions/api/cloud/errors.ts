import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '#shared/http/context';
import { type ErrorCode, statusOf, ValidationError } from '#shared/http/errors';
import { toServiceError } from '#shared/http/service-app';

/**
 * Errors of the Cloud-API-compatible paths in the Cloud API's own shape: its schema, its codes, the
 * middleware. Both rooms with such paths use it (messages/ to send, media/ for media ids), so it is
 * neither's: each imports it and neither imports the other for it.
 */

export const CloudError = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      code: z.number().int(),
      error_subcode: z.number().int().optional(),
      error_data: z.object({ messaging_product: z.string(), details: z.string() }).optional(),
      fbtrace_id: z.string(),
    }),
  })
  .openapi('CloudError');

/**
 * Our error codes in Cloud API terms (documented in docs/messaging.md). HTTP statuses stay ours, so a
 * plain HTTP client still sees 404/422/429; Cloud API clients read `error.code`.
 */
const CLOUD_CODES: Record<ErrorCode, { code: number; title: string; subcode?: number }> = {
  VALIDATION_FAILED: { code: 100, title: 'Invalid parameter' },
  MALFORMED_JSON: { code: 100, title: 'Invalid parameter' },
  UNAUTHORIZED: { code: 190, title: 'Invalid OAuth access token' },
  FORBIDDEN: { code: 200, title: 'Permissions error' },
  DOMAIN_NOT_APPROVED: { code: 200, title: 'Permissions error' },
  NOT_FOUND: { code: 100, title: 'Invalid parameter' },
  SESSION_NOT_FOUND: {
    code: 100,
    subcode: 33,
    title: 'Unsupported post request: phone number id does not exist',
  },
  TEMPLATE_NOT_FOUND: { code: 132001, title: 'Template name does not exist in the translation' },
  CONFLICT: { code: 100, title: 'Invalid parameter' },
  PAYLOAD_TOO_LARGE: { code: 131053, title: 'Media upload error' },
  UNSUPPORTED_MEDIA_TYPE: { code: 100, title: 'Invalid parameter' },
  IDEMPOTENCY_KEY_REUSED: { code: 100, title: 'Invalid parameter' },
  SESSION_NOT_READY: { code: 133010, title: 'Phone number not registered (session not connected)' },
  PAYMENT_NOT_CONFIGURED: { code: 100, title: 'Invalid parameter' },
  // Not 131056 (pair rate limit: "wait a few seconds"), which Cloud clients retry at once. A monthly
  // allowance used up is Meta's spending-limit refusal ("credit line is over the limit"): no retry
  // helps until the period resets (Retry-After) or the limit is raised.
  QUOTA_EXCEEDED: { code: 131042, title: 'Business eligibility payment issue: message limit reached' },
  RATE_LIMITED: { code: 130429, title: 'Rate limit hit' },
  // Meta's refusal when a number may not send more for now ("restrictions on how many messages can
  // be sent from this phone number"): the nearest meaning to the network's new-chat restriction.
  NEW_CHATS_RESTRICTED: { code: 131048, title: 'Spam rate limit hit' },
  TENANT_DISABLED: { code: 131031, title: 'Account has been locked' },
  UPSTREAM_UNAVAILABLE: { code: 131016, title: 'Service unavailable' },
  SERVICE_UNAVAILABLE: { code: 131016, title: 'Service unavailable' },
  INTERNAL: { code: 131000, title: 'Something went wrong' },
};

/** Template parameter count problems have their own Cloud API code. */
const TEMPLATE_PARAMS_CODE = 132000;

export function cloudError(err: unknown, traceId: string, product = 'whatsapp') {
  const svc = toServiceError(err, traceId);
  const mapped = CLOUD_CODES[svc.code];
  const templateParams =
    svc instanceof ValidationError && svc.details?.field?.startsWith('template.components');
  const code = templateParams ? TEMPLATE_PARAMS_CODE : mapped.code;
  const title = templateParams
    ? 'Number of parameters does not match the expected number of params'
    : mapped.title;
  return {
    status: statusOf(svc.code),
    retryAfterSeconds: svc.details?.retryAfterSeconds,
    body: {
      error: {
        message: `(#${code}) ${title}`,
        type: 'OAuthException',
        code,
        ...(mapped.subcode ? { error_subcode: mapped.subcode } : {}),
        error_data: { messaging_product: product, details: svc.message },
        fbtrace_id: traceId,
      },
    },
  };
}

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
