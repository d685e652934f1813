import { createRoute, z } from '@hono/zod-openapi';

/**
 * The definitions of the routes of routes.ts, which also make /openapi.json.
 */

export const metricsRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['meta'],
  summary:
    'The service counters in Prometheus text format (local mode only: in the cloud they are CloudWatch metrics; no auth, served on 127.0.0.1)',
  security: [],
  responses: {
    200: {
      description: 'Prometheus exposition format 0.0.4',
      content: { 'text/plain': { schema: z.string() } },
    },
  },
});
