import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import {
  type ErrorCode,
  NotFoundError,
  QuotaExceededError,
  ServiceError,
  ValidationError,
} from '#shared/http/errors';
import { CloudError, cloudError } from './errors.ts';

/** docs/messaging.md, "Errors on this path": our code → HTTP status, Cloud API code and subcode. */
const EXPECTED = {
  VALIDATION_FAILED: { status: 400, code: 100 },
  MALFORMED_JSON: { status: 400, code: 100 },
  UNAUTHORIZED: { status: 401, code: 190 },
  FORBIDDEN: { status: 403, code: 200 },
  DOMAIN_NOT_APPROVED: { status: 403, code: 200 },
  NOT_FOUND: { status: 404, code: 100 },
  SESSION_NOT_FOUND: { status: 404, code: 100, subcode: 33 },
  TEMPLATE_NOT_FOUND: { status: 404, code: 132001 },
  CONFLICT: { status: 409, code: 100 },
  PAYLOAD_TOO_LARGE: { status: 413, code: 131053 },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 100 },
  SESSION_NOT_READY: { status: 422, code: 133010 },
  IDEMPOTENCY_KEY_REUSED: { status: 422, code: 100 },
  PAYMENT_NOT_CONFIGURED: { status: 422, code: 100 },
  QUOTA_EXCEEDED: { status: 429, code: 131042 },
  RATE_LIMITED: { status: 429, code: 130429 },
  NEW_CHATS_RESTRICTED: { status: 429, code: 131048 },
  TENANT_DISABLED: { status: 403, code: 131031 },
  UPSTREAM_UNAVAILABLE: { status: 503, code: 131016 },
  SERVICE_UNAVAILABLE: { status: 503, code: 131016 },
  INTERNAL: { status: 500, code: 131000 },
} satisfies Record<ErrorCode, { status: number; code: number; subcode?: number }>;

describe('cloudError', () => {
  it.each(Object.entries(EXPECTED))('%s → HTTP %o in the Cloud API shape', (ourCode, want) => {
    const e = cloudError(new ServiceError(ourCode as ErrorCode, 'what went wrong'), 'trace-1');
    expect(e.status).toBe(want.status);
    expect(CloudError.parse(e.body)).toEqual(e.body);
    const { error } = e.body;
    expect(error.code).toBe(want.code);
    expect(error.message).toMatch(new RegExp(`^\\(#${want.code}\\) \\S`));
    expect(error.type).toBe('OAuthException');
    expect(error.fbtrace_id).toBe('trace-1');
    expect(error.error_data).toEqual({ messaging_product: 'whatsapp', details: 'what went wrong' });
    if ('subcode' in want) expect(error.error_subcode).toBe(want.subcode);
    else expect(error).not.toHaveProperty('error_subcode');
    expect(e.retryAfterSeconds).toBeUndefined();
  });

  it('gives template parameter problems their own code; other validation failures stay 100', () => {
    const params = cloudError(
      new ValidationError('expected 2 parameters, got 1', 'template.components.parameters'),
      't',
    );
    expect(params.status).toBe(400);
    expect(params.body.error).toMatchObject({
      code: 132000,
      message: '(#132000) Number of parameters does not match the expected number of params',
      error_data: { details: 'expected 2 parameters, got 1' },
    });
    const other = cloudError(new ValidationError('to: required', 'to'), 't');
    expect(other.body.error).toMatchObject({ code: 100, message: '(#100) Invalid parameter' });
  });

  it('keeps the subcode of an unknown phone number id', () => {
    const e = cloudError(new NotFoundError('no session 123', 'SESSION_NOT_FOUND'), 't');
    expect(e.status).toBe(404);
    expect(e.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('passes the quota reset time on as Retry-After seconds', () => {
    const e = cloudError(new QuotaExceededError('monthly quota of 10 reached', 3600), 't');
    expect(e.status).toBe(429);
    expect(e.retryAfterSeconds).toBe(3600);
    expect(e.body.error.code).toBe(131042);
    expect(e.body.error.error_data.details).toBe('monthly quota of 10 reached');
  });

  it('echoes the messaging product the client used', () => {
    const e = cloudError(new ValidationError('bad'), 't', 'network');
    expect(e.body.error.error_data.messaging_product).toBe('network');
  });

  it('answers an unknown error as a generic 500 naming the trace id, never its message', () => {
    const e = cloudError(new Error('db password is hunter2'), 'req-42');
    expect(e.status).toBe(500);
    expect(e.body.error).toMatchObject({
      code: 131000,
      message: '(#131000) Something went wrong',
      fbtrace_id: 'req-42',
      error_data: { details: 'internal error (request id req-42)' },
    });
    expect(JSON.stringify(e.body)).not.toContain('hunter2');
  });

  it("maps Hono's body errors: not JSON → 400/100, too large → 413/131053", () => {
    const notJson = cloudError(new HTTPException(400, { message: 'Malformed JSON' }), 't');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe(100);
    const tooLarge = cloudError(new HTTPException(413), 't');
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe(131053);
  });
});
