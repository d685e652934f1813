import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createRoute, z } from '@hono/zod-openapi';
import { dynamoClient, s3Client, sqsClient } from '../aws/clients.ts';
import { names } from '../aws/names.ts';
import { queueUrl } from '../aws/queue-url.ts';
import { router } from './context.ts';
import { json } from './schemas.ts';

const Check = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });
const Health = z.object({
  success: z.boolean(),
  version: z.string(),
  checks: z.record(z.string(), Check),
});

async function check(fn: () => Promise<unknown>): Promise<z.infer<typeof Check>> {
  const t0 = performance.now();
  try {
    await Promise.race([
      fn(),
      new Promise((_, rej) => setTimeout(() => rej(new Error('timeout after 3 s')), 3000)),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - t0) };
  } catch (err) {
    return { ok: false, latencyMs: Math.round(performance.now() - t0), error: (err as Error).name };
  }
}

const route = createRoute({
  method: 'get',
  path: '/',
  summary: 'Liveness and each dependency (no auth)',
  security: [],
  tags: ['meta'],
  responses: { 200: json(Health), 503: json(Health, 'A dependency is down') },
});

export function healthRoutes() {
  const r = router();
  r.openapi(route, async (c) => {
    const [dynamodb, s3, sqs] = await Promise.all([
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
    const checks = { dynamodb, s3, sqs };
    const ok = Object.values(checks).every((x) => x.ok);
    return c.json(
      { success: ok, version: process.env.npm_package_version ?? '0.1.0', checks },
      ok ? 200 : 503,
    );
  });
  return r;
}
