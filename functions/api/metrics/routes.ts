import { router } from '#shared/http/context';
import { prometheusText } from '#shared/metrics/metrics';
import { metricsRoute } from './routes.schema.ts';

/** `GET /metrics`: what this process counted since it started (docs/observability.md). */
export function metricsRoutes() {
  const r = router();
  r.openapi(metricsRoute, (c) =>
    c.text(prometheusText(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
  return r;
}
