import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createRoute, z } from '@hono/zod-openapi';
import { dynamoClient, s3Client, sqsClient } from '../aws/clients.ts';
import { names } from '../aws/names.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { runtimeEnv } from '../config/env.ts';
import { loadSecrets } from '../config/load-secrets.ts';
import { router } from './context.ts';
import { json } from './schemas.ts';

const Check = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });
const Health = z.object({
  success: z.boolean(),
  version: z.string(),
  checks: z.record(z.string(), Check),
});
const Live = z.object({
  success: z.literal(true),
  uptimeSeconds: z.number(),
  eventLoopDelayMaxMs: z.number(),
});

/** What failed, never how: an error's name or system code (no message, which may quote a value). */
function reasonOf(err: unknown): string {
  const e = err as { name?: string; code?: unknown };
  if (e?.name && e.name !== 'Error') return e.name;
  return typeof e?.code === 'string' ? e.code : 'Error';
}

async function check(fn: () => Promise<unknown>): Promise<z.infer<typeof Check>> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise((_, rej) => {
        timer = setTimeout(
          () => rej(Object.assign(new Error('timeout after 3 s'), { name: 'Timeout' })),
          3000,
        );
      }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - t0) };
  } catch (err) {
    return { ok: false, latencyMs: Math.round(performance.now() - t0), error: reasonOf(err) };
  } finally {
    clearTimeout(timer);
  }
}

const readiness = createRoute({
  method: 'get',
  path: '/',
  summary: 'Readiness: each dependency (secrets, DynamoDB, S3, SQS) and which one failed (no auth)',
  security: [],
  tags: ['meta'],
  responses: { 200: json(Health), 503: json(Health, 'A dependency is down; `checks` names it') },
});

const liveness = createRoute({
  method: 'get',
  path: '/live',
  summary: 'Liveness: the process answers; no dependency is called (no auth)',
  tags: ['meta'],
  security: [],
  responses: { 200: json(Live) },
});

/**
 * The event loop's longest stall since the previous liveness answer: a host whose loop stalls for
 * seconds is still alive (it answers), but the figure says so. A loop that does not turn at all
 * does not answer, and the load balancer's timeout is what notices that.
 */
let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;

export function healthRoutes() {
  const r = router();
  r.openapi(readiness, async (c) => {
    const [secrets, dynamodb, s3, sqs] = await Promise.all([
      // Nothing to fetch locally; in the cloud the secrets' first load, or its retry after a failure.
      check(() => loadSecrets()),
      check(() => dynamoClient().send(new DescribeTableCommand({ TableName: names.dataTable() }))),
      check(() => s3Client().send(new HeadBucketCommand({ Bucket: names.mediaBucket() }))),
      check(async () =>
        sqsClient().send(
          new GetQueueAttributesCommand({
            QueueUrl: await queueUrl(names.eventsQueue()),
            AttributeNames: ['All'],
          }),
        ),
      ),
    ]);
    const checks = { secrets, dynamodb, s3, sqs };
    const ok = Object.values(checks).every((x) => x.ok);
    return c.json({ success: ok, version: runtimeEnv().npm_package_version, checks }, ok ? 200 : 503);
  });
  // What the load balancer and ECS ask (docs/deploy.md): a dependency outage must not get every
  // host replaced and every linked session dropped, so this calls nothing.
  r.openapi(liveness, (c) => {
    if (!loopDelay) {
      loopDelay = monitorEventLoopDelay({ resolution: 20 });
      loopDelay.enable();
    }
    const eventLoopDelayMaxMs = Math.round(loopDelay.max / 1e6);
    loopDelay.reset();
    return c.json(
      { success: true as const, uptimeSeconds: Math.round(process.uptime()), eventLoopDelayMaxMs },
      200,
    );
  });
  return r;
}
