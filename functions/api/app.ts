import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { env } from '#shared/config/env';
import { errorBody } from '#shared/http/errors';
import { healthRoutes } from '#shared/http/health';
import { serviceApp } from '#shared/http/service-app';
import { ttsRoutes } from '#shared/speech/routes';
import { extractionStreamRoutes } from '#shared/stream/extraction';
import { streamRoutes } from '#shared/stream/routes';
import { adminRoutes } from './admin/routes.ts';
import { aiRoutes } from './ai/routes.ts';
import { authRoutes, portalRoutes } from './auth/routes.ts';
import { chatbotApi } from './chatbot/index.ts';
import { legacyChatbotRoutes } from './chatbot/legacy-routes.ts';
import { commandRoutes } from './commands/routes.ts';
import { docsRoutes } from './docs.ts';
import { formattedRoutes } from './history/formatted-routes.ts';
import { liveRoutes } from './history/live-routes.ts';
import { viewRoutes } from './history/view-routes.ts';
import { mediaRoutes } from './media/routes.ts';
import { messagesApi } from './messages/index.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { sessionsApi } from './sessions/index.ts';
import { templateRoutes } from './templates/routes.ts';
import { webhookRoutes } from './webhooks/config-routes.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;

/** The rest of an oversized body is never read, so the connection cannot be reused. */
function tooLarge(c: Context, message: string) {
  c.header('connection', 'close');
  return c.json(errorBody('PAYLOAD_TOO_LARGE', message), 413);
}

/**
 * The one Hono application: the API Lambda exports it, `npm start` serves it. Each resource is
 * mounted at its own prefix, and no two prefixes overlap, so the order below does not matter.
 */
export function createApp() {
  const app = serviceApp();

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

  app.route('/health', healthRoutes());
  // Locally only: in the cloud each function's counters go to CloudWatch (EMF) after each invocation.
  if (env().METRICS_FORMAT === 'prometheus') app.route('/metrics', metricsRoutes());
  app.route('/api/auth', authRoutes());
  app.route('/api/portal', portalRoutes());
  app.route('/api/admin', adminRoutes());
  app.route('/api/sessions', sessionsApi());
  app.route('/api/messages', messagesApi());
  app.route('/api/media', mediaRoutes());
  app.route('/api/commands', commandRoutes());
  app.route('/api/templates', templateRoutes());
  app.route('/api/webhook', webhookRoutes());
  app.route('/api/v1', formattedRoutes());
  app.route('/api/v1/chatbot', chatbotApi());
  app.route('/api/v1/ai', aiRoutes());
  app.route('/api/v1', ttsRoutes());
  app.route('/api/v1/payments', paymentRoutes());
  app.route('/api/chatbot', legacyChatbotRoutes());
  app.route('/view', viewRoutes());
  app.route('/api/public/portal', liveRoutes());
  app.route('/api/public/portal', streamRoutes());
  app.route('/api/v1/chatbot', extractionStreamRoutes());

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/openapi.json',
    tags: ['meta'],
    summary: 'This document: the OpenAPI 3.1 description of every route (no auth)',
    responses: { 200: { description: 'The OpenAPI document' } },
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Messaging session manager API',
      version: process.env.npm_package_version ?? '0.1.0',
      description:
        'Multi-session manager for the messaging network. Errors: `{success:false,error:{code,message}}`.',
    },
  });
  app.route('/docs', docsRoutes());
  return app;
}

export type App = ReturnType<typeof createApp>;
