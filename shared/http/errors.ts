/** The one error tree. Each class has a stable code; `statusOf` maps every code to an HTTP status. */

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'MALFORMED_JSON'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'DOMAIN_NOT_APPROVED'
  | 'NOT_FOUND'
  | 'SESSION_NOT_FOUND'
  | 'TEMPLATE_NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'SESSION_NOT_READY'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYMENT_NOT_CONFIGURED'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'NEW_CHATS_RESTRICTED'
  | 'TENANT_DISABLED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

const STATUS: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  DOMAIN_NOT_APPROVED: 403,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  TEMPLATE_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SESSION_NOT_READY: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYMENT_NOT_CONFIGURED: 422,
  QUOTA_EXCEEDED: 429,
  RATE_LIMITED: 429,
  NEW_CHATS_RESTRICTED: 429,
  TENANT_DISABLED: 403,
  UPSTREAM_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function statusOf(code: ErrorCode) {
  return STATUS[code];
}

export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: { retryAfterSeconds?: number; field?: string },
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends ServiceError {
  constructor(message: string, field?: string) {
    super('VALIDATION_FAILED', message, { field });
  }
}

export class UnauthorizedError extends ServiceError {
  constructor(message = 'missing or invalid credentials') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends ServiceError {
  constructor(message = 'not allowed') {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends ServiceError {
  constructor(message: string, code: 'NOT_FOUND' | 'SESSION_NOT_FOUND' | 'TEMPLATE_NOT_FOUND' = 'NOT_FOUND') {
    super(code, message);
  }
}

export class ConflictError extends ServiceError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

export class SessionNotReadyError extends ServiceError {
  constructor(sessionId: string, status: string) {
    super('SESSION_NOT_READY', `session ${sessionId} is ${status}, not READY`);
  }
}

/** An `Idempotency-Key` already used, within its 24 hours, for a request with another body. */
export class IdempotencyKeyReusedError extends ServiceError {
  constructor() {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      'this Idempotency-Key was used in the last 24 hours for a request with another body; choose a new key',
      { field: 'Idempotency-Key' },
    );
  }
}

export class QuotaExceededError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    super('QUOTA_EXCEEDED', message, { retryAfterSeconds });
  }
}

/** Too many requests, failed credential attempts or open connections for now; `Retry-After` says when to try again. */
export class RateLimitedError extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', message, { retryAfterSeconds });
  }
}

/**
 * The network restricts the session's account from starting new chats (463, reach-out time-lock,
 * new-chat cap): a send to a chat it has none with is refused rather than sent into a ban.
 */
export class NewChatsRestrictedError extends ServiceError {
  constructor(message: string, retryAfterSeconds?: number) {
    super('NEW_CHATS_RESTRICTED', message, retryAfterSeconds ? { retryAfterSeconds } : undefined);
  }
}

/** The tenant's credentials are valid but the tenant is disabled (admin `POST /tenants/{id}/disable`). */
export class TenantDisabledError extends ServiceError {
  constructor(tenantId: string) {
    super('TENANT_DISABLED', `tenant ${tenantId} is disabled`);
  }
}

/** The service itself cannot answer yet (its secrets could not be loaded); nothing the caller did. */
export class ServiceUnavailableError extends ServiceError {
  constructor(message: string, retryAfterSeconds = 5) {
    super('SERVICE_UNAVAILABLE', message, { retryAfterSeconds });
  }
}

export function errorBody(code: ErrorCode, message: string) {
  return { success: false as const, error: { code, message } };
}
