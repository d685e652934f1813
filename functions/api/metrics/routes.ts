import { createRoute, z } from '@hono/zod-openapi';
import { router } from '#shared/http/context';
import { prometheusText } from '#shared/metrics/metrics';

const route = createRoute({
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

/** `GET /metrics`: what this process counted since it started (docs/observability.md). */
export function metricsRoutes() {
  const r = router();
  r.openapi(route, (c) =>
    c.text(prometheusText(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
  return r;
}
