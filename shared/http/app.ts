import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { authRoutes } from '../auth/routes.ts';
import { logger } from '../log/logger.ts';
import { type AppEnv, router } from './context.ts';
import { docsRoutes } from './docs.ts';
import { domainRouters } from './domain-routes.ts';
import { errorBody, ServiceError, statusOf } from './errors.ts';
import { healthRoutes } from './health.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;

/** The rest of an oversized body is never read, so the connection cannot be reused. */
function tooLarge(c: Context, message: string) {
  c.header('connection', 'close');
  return c.json(errorBody('PAYLOAD_TOO_LARGE', message), 413);
}

export interface AppParts {
  /** Extra routers mounted at the root (streams and the simulator where this process serves them). */
  extra?: Array<Hono<AppEnv>>;
}

/** The one Hono application: the API Lambda exports it, `npm start` serves it. */
export function createApp(parts: AppParts = {}) {
  const app = router();

  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 100) || randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    await next();
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: UPLOAD_BODY_LIMIT,
      onError: (c) => tooLarge(c, `request body exceeds ${UPLOAD_BODY_LIMIT} bytes`),
    }),
  );
  app.use('*', async (c, next) => {
    // Uploads have their own limit; the simulated network's device protocol carries media as JSON.
    if (c.req.header('content-type')?.startsWith('multipart/') || c.req.path.startsWith('/_sim/'))
      return next();
    return bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: (cc) => tooLarge(cc, `JSON body exceeds ${JSON_BODY_LIMIT} bytes`),
    })(c, next);
  });

  app.onError((err, c) => {
    if (err instanceof ServiceError) {
      const status = statusOf(err.code);
      if (err.details?.retryAfterSeconds) c.header('Retry-After', String(err.details.retryAfterSeconds));
      return c.json(errorBody(err.code, err.message), status);
    }
    if (err instanceof HTTPException) {
      // Hono's JSON validator throws this for a body that is not JSON.
      if (err.status === 400)
        return c.json(errorBody('MALFORMED_JSON', 'request body is not valid JSON'), 400);
      if (err.status === 413) return c.json(errorBody('PAYLOAD_TOO_LARGE', 'request body too large'), 413);
    }
    logger.error({ err, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error');
    return c.json(errorBody('INTERNAL', `internal error (request id ${c.get('requestId')})`), 500);
  });

  app.notFound((c) => c.json(errorBody('NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`), 404));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });

  app.route('/', healthRoutes());
  app.route('/', authRoutes());
  for (const r of domainRouters()) app.route('/', r);
  for (const extra of parts.extra ?? []) app.route('/', extra);

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Messaging session manager API',
      version: process.env.npm_package_version ?? '0.1.0',
      description:
        'Multi-session manager for the messaging network. Errors: `{success:false,error:{code,message}}`.',
    },
  });
  app.route('/', docsRoutes());
  return app;
}

export type App = ReturnType<typeof createApp>;
