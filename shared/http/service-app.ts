import { randomUUID } from 'node:crypto';
import { HTTPException } from 'hono/http-exception';
import { logger } from '../log/logger.ts';
import { router } from './context.ts';
import { errorBody, ServiceError, statusOf } from './errors.ts';

/**
 * Any error a handler throws, as one of ours. Hono's own exceptions (a body that is not JSON, a body
 * over the limit) keep their meaning; anything else is an internal error, told apart by request id.
 */
export function toServiceError(err: unknown, requestId: string): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 400) return new ServiceError('MALFORMED_JSON', 'request body is not valid JSON');
    if (err.status === 413) return new ServiceError('PAYLOAD_TOO_LARGE', 'request body too large');
    if (err.status === 415)
      return new ServiceError(
        'UNSUPPORTED_MEDIA_TYPE',
        'this route does not take a body of that content type',
      );
  }
  return new ServiceError('INTERNAL', `internal error (request id ${requestId})`);
}

/**
 * The frame every HTTP face of the service shares (the API, the connection host's streams): a
 * request id on every request and response, the JSON error shape for every failure, and a JSON 404.
 */
export function serviceApp() {
  const app = router();
  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 100) || randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    await next();
  });
  app.onError((err, c) => {
    const svc = toServiceError(err, c.get('requestId'));
    if (svc.code === 'INTERNAL') {
      logger.error({ err, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error');
    }
    if (svc.details?.retryAfterSeconds) c.header('Retry-After', String(svc.details.retryAfterSeconds));
    return c.json(errorBody(svc.code, svc.message), statusOf(svc.code));
  });
  app.notFound((c) => c.json(errorBody('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`), 404));
  return app;
}
