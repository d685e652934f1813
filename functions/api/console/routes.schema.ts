import { createRoute, z } from '@hono/zod-openapi';

/**
 * The definitions of the routes of routes.ts, which also make /openapi.json.
 */

export const pageRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['meta'],
  security: [],
  summary:
    'The web console: sign in with an API key; sessions, inbox, chatbot, webhooks, usage, exports (no auth to load; it calls this API with a token)',
  responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
});

export const assetRoute = createRoute({
  method: 'get',
  path: '/assets/{name}',
  tags: ['meta'],
  security: [],
  summary: "The console's script and style sheet (no auth)",
  request: { params: z.object({ name: z.string().max(100).openapi({ example: 'app.js' }) }) },
  responses: {
    200: { description: 'The asset', content: { 'text/plain': { schema: z.string() } } },
    404: { description: 'No such asset' },
  },
});
