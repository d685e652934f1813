import { createRoute, z } from '@hono/zod-openapi';

/**
 * The definitions of the routes of docs.ts, which also make /openapi.json.
 */

export const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

export const pageRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['meta'],
  summary: 'Interactive API reference (Swagger UI over /openapi.json; no auth)',
  security: [],
  responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
});

export const assetRoute = createRoute({
  method: 'get',
  path: '/assets/{name}',
  tags: ['meta'],
  summary: "The reference page's script and style sheet (no auth)",
  security: [],
  request: { params: z.object({ name: z.string().max(100).openapi({ example: 'swagger-ui.css' }) }) },
  responses: {
    200: { description: 'The asset', content: { 'text/plain': { schema: z.string() } } },
    404: { description: 'Not packaged here' },
  },
});
