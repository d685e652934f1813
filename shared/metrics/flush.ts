import { env, runtimeEnv } from '../config/env.ts';
import { takeEmf } from './metrics.ts';

/**
 * In the cloud (`METRICS_FORMAT=emf`): writes what was counted since the last flush to stdout as
 * embedded-metric-format lines (CloudWatch Logs turns them into metrics in the `<prefix>` namespace).
 * Locally a no-op: the counters stay for `GET /metrics`.
 */
export function flushMetrics(): void {
  const cfg = env();
  if (cfg.METRICS_FORMAT !== 'emf') return;
  const service = runtimeEnv().SERVICE_NAME ?? 'service';
  for (const doc of takeEmf(cfg.RESOURCE_PREFIX, service)) process.stdout.write(`${doc}\n`);
}
