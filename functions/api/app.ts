import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { env, runtimeEnv } from '#shared/config/env';
import { loadSecrets } from '#shared/config/load-secrets';
import { HOST_MOUNTS } from '#shared/host/paths';
import type { Router } from '#shared/http/context';
import { corsMiddleware } from '#shared/http/cors';
import { edgeOnly } from '#shared/http/edge-origin';
import { errorBody, ServiceUnavailableError } from '#shared/http/errors';
import { serviceApp } from '#shared/http/service-app';
import { logger } from '#shared/log/logger';
import { MEDIA_MAX_BYTES } from '#shared/media/limits';
import { forGenerators } from './openapi.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = MEDIA_MAX_BYTES;

/** The rest of an oversized body is never read, so the connection cannot be reused. */
function tooLarge(c: Context, message: string) {
  c.header('connection', 'close');
  return c.json(errorBody('PAYLOAD_TOO_LARGE', message), 413);
}

/** A resource's routes at a prefix; the module is imported when the routes are first needed. */
interface Mount {
  prefix: string;
  routes: () => Promise<Router>;
}

/**
 * Every resource at its prefix. Several resources may share a prefix (their paths never overlap);
 * a longer prefix is listed before a shorter one that contains it.
 */
const MOUNTS: Mount[] = [
  { prefix: HOST_MOUNTS.health, routes: async () => (await import('#shared/http/health')).healthRoutes() },
  { prefix: '/api/auth', routes: async () => (await import('./auth/routes.ts')).authRoutes() },
  { prefix: '/api/portal', routes: async () => (await import('./auth/routes.ts')).portalRoutes() },
  { prefix: '/api/admin', routes: async () => (await import('./admin/routes.ts')).adminRoutes() },
  { prefix: '/api/keys', routes: async () => (await import('./keys/routes.ts')).keyRoutes() },
  { prefix: '/api/sessions', routes: async () => (await import('./sessions-prefix.ts')).sessionsApi() },
  { prefix: '/api/messages', routes: async () => (await import('./messages/index.ts')).messagesApi() },
  { prefix: '/api/links', routes: async () => (await import('./links/routes.ts')).linkAdminRoutes() },
  { prefix: '/links', routes: async () => (await import('./links/routes.ts')).linkRoutes() },
  { prefix: '/api/media', routes: async () => (await import('./media/routes.ts')).mediaRoutes() },
  { prefix: '/api/chats', routes: async () => (await import('./chats/routes.ts')).chatRoutes() },
  { prefix: '/api/contacts', routes: async () => (await import('./contacts/routes.ts')).contactRoutes() },
  { prefix: '/api/commands', routes: async () => (await import('./commands/routes.ts')).commandRoutes() },
  { prefix: '/api/templates', routes: async () => (await import('./templates/routes.ts')).templateRoutes() },
  {
    prefix: '/api/webhook',
    routes: async () => (await import('./webhooks/config-routes.ts')).webhookRoutes(),
  },
  { prefix: '/api/v1/chatbot', routes: async () => (await import('./chatbot/index.ts')).chatbotApi() },
  {
    prefix: HOST_MOUNTS.extractionStream,
    routes: async () => (await import('#shared/stream/extraction')).extractionStreamRoutes(),
  },
  { prefix: '/api/v1/ai', routes: async () => (await import('./ai/routes.ts')).aiRoutes() },
  { prefix: '/api/v1/payments', routes: async () => (await import('./payments/routes.ts')).paymentRoutes() },
  {
    prefix: '/api/v1',
    routes: async () => (await import('./history/formatted-routes.ts')).formattedRoutes(),
  },
  { prefix: HOST_MOUNTS.speech, routes: async () => (await import('#shared/speech/routes')).ttsRoutes() },
  {
    prefix: '/api/chatbot',
    routes: async () => (await import('./chatbot/legacy-routes.ts')).legacyChatbotRoutes(),
  },
  { prefix: '/view', routes: async () => (await import('./history/view-routes.ts')).viewRoutes() },
  {
    prefix: '/api/public/portal',
    routes: async () => (await import('./history/live-routes.ts')).liveRoutes(),
  },
  {
    prefix: HOST_MOUNTS.portalStream,
    routes: async () => (await import('#shared/stream/routes')).streamRoutes(),
  },
  { prefix: '/docs', routes: async () => (await import('./docs.ts')).docsRoutes() },
  { prefix: '/console', routes: async () => (await import('./console/routes.ts')).consoleRoutes() },
  { prefix: '/mcp', routes: async () => (await import('./mcp/routes.ts')).mcpRoutes() },
];

/** Every mount, with `/metrics` locally only: in the cloud each function's counters go to CloudWatch (EMF). */
const allMounts = (): Mount[] =>
  env().METRICS_FORMAT === 'prometheus'
    ? [
        { prefix: '/metrics', routes: async () => (await import('./metrics/routes.ts')).metricsRoutes() },
        ...MOUNTS,
      ]
    : MOUNTS;

/** The frame around the routes: request ids and errors (serviceApp), body limits, the auth scheme. */
function frame() {
  const app = serviceApp();
  app.use('*', corsMiddleware());

  app.use(
    '*',
    bodyLimit({
      maxSize: UPLOAD_BODY_LIMIT,
      onError: (c) => tooLarge(c, `request body exceeds ${UPLOAD_BODY_LIMIT} bytes`),
    }),
  );
  app.use('*', async (c, next) => {
    // Uploads have their own limit above.
    if (c.req.header('content-type')?.startsWith('multipart/')) return next();
    return bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: (cc) => tooLarge(cc, `JSON body exceeds ${JSON_BODY_LIMIT} bytes`),
    })(c, next);
  });

  // An answer given before the body was read (401, 403, 404…) must not leave it unread: closing a
  // socket with unread bytes resets it, and the client loses the answer. Read what the limits allow.
  app.use('*', async (c, next) => {
    await next();
    const req = c.req.raw;
    if (!req.body || req.bodyUsed) return;
    const length = Number(c.req.header('content-length') ?? Number.NaN);
    if (length <= JSON_BODY_LIMIT) await req.arrayBuffer().catch(() => undefined);
    else c.res.headers.set('connection', 'close');
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'An API key, exchanged for a token at POST /api/auth/token only',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'queryKey', {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description:
      'An API key or token in the query (`apiKey` is read too where the route says so), for clients that cannot set a header (EventSource)',
  });
  return app;
}

/**
 * The document's own facts. `servers` is the host that served it (a relative URL), the same in
 * local mode and behind API Gateway; the operator of a deployment is its contact.
 */
const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Messaging session manager API',
    version: runtimeEnv().npm_package_version,
    description:
      'Multi-session manager for the messaging network. Errors: `{success:false,error:{code,message}}`. Reference: docs/api.md.',
    // package.json `license`: a private package, no licence granted. Its owner changes both together.
    license: { name: 'UNLICENSED', identifier: 'LicenseRef-Proprietary' },
    contact: { name: 'The operator of this deployment' },
  },
  servers: [{ url: '/', description: 'The host that served this document' }],
};

/** The frame with the given mounts' routes. */
async function appWith(mounts: Mount[]) {
  const app = frame();
  const routes = await Promise.all(mounts.map(async (m) => ({ prefix: m.prefix, routes: await m.routes() })));
  for (const m of routes) app.route(m.prefix, m.routes);
  return app;
}

/**
 * The one Hono application with every route (`npm start` serves it, tests use it), and the
 * OpenAPI document of them all.
 */
export async function createApp() {
  const app = await appWith(allMounts());
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/openapi.json',
    tags: ['meta'],
    summary: 'This document: the OpenAPI 3.1 description of every route (no auth)',
    security: [],
    responses: { 200: { description: 'The OpenAPI document' } },
  });
  // Built on the first request (every route is registered by then) and kept.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get('/openapi.json', (c) => {
    document ??= forGenerators(app.getOpenAPI31Document(DOCUMENT));
    return c.json(document);
  });
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;

/**
 * The same application for the API Lambda, built a prefix at a time: a request is answered by the
 * frame with the routes of its prefix, imported and built on the first request under that prefix
 * (a cold start no longer compiles and builds every resource's schemas; docs/benchmarks.md).
 * `/openapi.json` builds the whole application once. Answers are the same as `createApp()`'s.
 */
export function createLazyApp() {
  const app = serviceApp();
  // The secrets (Secrets Manager in the cloud; nothing to fetch locally) before any route: one that
  // cannot be loaded is a 503 on every route, retried on the next request. `/health` goes on without
  // them and names the failed dependency.
  app.use('*', async (c, next) => {
    if (c.req.path === '/health' || c.req.path.startsWith('/health/')) return next();
    try {
      await loadSecrets();
    } catch (err) {
      // The error says which secret and why (its ARN, the SDK's reason), never a secret's value.
      logger.error({ err, requestId: c.get('requestId'), path: c.req.path }, 'secrets could not be loaded');
      throw new ServiceUnavailableError('the service cannot load its configuration; retry shortly');
    }
    return next();
  });
  // After the secrets: the distribution's key is one of them. `/health` answers without either.
  const edge = edgeOnly();
  app.use('*', (c, next) =>
    c.req.path === '/health' || c.req.path.startsWith('/health/') ? next() : edge(c, next),
  );
  /** Answers with the application `build` makes, built on the first request and kept (rebuilt after a failure). */
  const lazily = (build: () => Promise<{ fetch: App['fetch'] }>) => {
    let built: Promise<{ fetch: App['fetch'] }> | undefined;
    return async (c: Context) => {
      if (!built) {
        built = build();
        built.catch(() => {
          built = undefined;
        });
      }
      // One request id for the whole answer: the built application takes it from the header.
      const headers = new Headers(c.req.raw.headers);
      headers.set('x-request-id', c.get('requestId'));
      return (await built).fetch(new Request(c.req.raw, { headers }), c.env);
    };
  };
  app.all('/openapi.json', lazily(createApp));
  const mounts = allMounts();
  const prefixes = [...new Set(mounts.map((m) => m.prefix))];
  // Longer prefixes first: the first handler that answers wins.
  prefixes.sort((a, b) => b.length - a.length);
  for (const prefix of prefixes) {
    const handler = lazily(() => appWith(mounts.filter((m) => m.prefix === prefix)));
    app.all(prefix, handler);
    app.all(`${prefix}/*`, handler);
  }
  return app;
}
