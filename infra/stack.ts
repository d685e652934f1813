import { Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { allQueues, buckets, commandQueue, queues, tables } from '#shared/aws/resources';
import { must } from '#shared/must';
import { leaseShardsFor } from '#shared/sessions/shard';
import { addObservability } from './alarms.ts';
import { apiFunction, httpApiFor } from './api.ts';
import { addConsumers } from './consumers.ts';
import type { DeploymentSettings } from './context.ts';
import { Edge } from './edge.ts';
import { type FunctionBase, pick } from './function-base.ts';
import { ConnectionHost } from './host.ts';
import type { LogSettings } from './log-groups.ts';
import { addOutputs } from './outputs.ts';
import { type QueueWithDlq, queueFrom } from './queues.ts';
import { serviceSecrets } from './secrets.ts';
import { bucketFrom, tableFrom } from './storage.ts';

export interface SessionManagerStackProps extends StackProps, DeploymentSettings {}

type TableKey = keyof typeof tables;

/**
 * The whole service: storage, queues and functions from shared/aws/resources.ts, the connection host, alarms.
 * Each part is a plain function given the stack (infra/api.ts, consumers.ts, secrets.ts, outputs.ts),
 * not a Construct of its own, so every resource keeps the logical ID it had when written here.
 */
export class SessionManagerStack extends Stack {
  constructor(scope: Construct, id: string, props: SessionManagerStackProps) {
    super(scope, id, props);
    const { prefix, shardCount } = props;

    const tbl = Object.fromEntries(
      Object.entries(tables).map(([key, def]) => [key, tableFrom(this, def, props.retainData)]),
    ) as Record<TableKey, dynamodb.Table>;
    const media = bucketFrom(this, buckets.media, props.retainData);
    const q = new Map<string, QueueWithDlq>(
      allQueues(shardCount).map((def) => [def.id, queueFrom(this, prefix, def)]),
    );
    const queue = (id: string) => must(q.get(id), `queue ${id}`).queue;
    const commandQueues = Array.from({ length: shardCount }, (_, i) => queue(commandQueue(i).id));

    const secrets = serviceSecrets(this);
    const service = props.service ?? {};
    const logs: LogSettings = { retentionDays: props.logRetentionDays, retain: props.retainLogs };
    // Browser origins allowed to call the API and open the streams (shared/http/cors.ts).
    const cors: Record<string, string> = props.corsOrigins?.length
      ? { CORS_ORIGINS: props.corsOrigins.join(',') }
      : {};
    if (props.corsOrigins?.length) {
      // A page's fetch() of a link follows its redirect to S3 as a cross-origin request whose origin
      // the browser then sends as `null` (a tainted origin), so no list of origins could match it.
      // Any origin may read what a presigned address already lets anyone read; the signature is the control.
      media.addCorsRule({
        allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
        allowedOrigins: ['*'],
        maxAge: 600,
      });
    }

    const names = {
      DATA_TABLE_NAME: tbl.data.tableName,
      AUTH_TABLE_NAME: tbl.auth.tableName,
      MEDIA_BUCKET_NAME: media.bucketName,
    };
    const host = new ConnectionHost(this, 'ConnectionHost', {
      prefix,
      shardCount,
      dataTable: tbl.data,
      authTable: tbl.auth,
      media,
      commandQueues,
      eventsQueue: queue(queues.events.id),
      environment: { ...names, ...pick(service, 'TTS_PROVIDER'), ...cors },
      jwtSecret: secrets.jwtSecret,
      linkSecret: secrets.linkSecret,
      logs,
      sizing: props.host,
    });

    const base: FunctionBase = {
      environment: {
        RESOURCE_PREFIX: prefix,
        SHARD_COUNT: String(shardCount),
        LEASE_SHARDS: String(leaseShardsFor(shardCount)),
        ...names,
      },
      dataTable: tbl.data,
      media,
      logs,
    };
    const api = apiFunction(this, base, {
      prefix,
      service,
      cors,
      secrets,
      commandQueues,
      webhooksQueue: queue(queues.webhooks.id),
      eventsQueue: queue(queues.events.id),
    });
    const httpApi = httpApiFor(this, api, base, {
      prefix,
      rateLimit: props.apiRateLimit,
      burstLimit: props.apiBurstLimit,
    });
    const { events, chatbot, mediaConsumer, webhooks } = addConsumers(this, base, {
      service,
      secrets,
      commandQueues,
      queues: q,
      ffmpegLayerArn: props.ffmpegLayerArn,
    });

    // One public name for the API and the streams (infra/edge.ts): every URL the service hands out
    // starts with it. No cycle: the distribution refers to the HTTP API and the load balancer, neither
    // of which refers to a function or a task (their integration, route and service do).
    const { edgeOriginKey, linkSecret } = secrets;
    const edge = new Edge(this, 'Edge', {
      httpApi,
      loadBalancer: host.loadBalancer,
      domainName: props.domainName,
      certificateArn: props.certificateArn,
      hostedZone: props.hostedZone,
      originKey: edgeOriginKey,
    });
    api.addEnvironment('EDGE_ORIGIN_KEY_ARN', edgeOriginKey.secretArn);
    edgeOriginKey.grantRead(api);
    // Links point at the public name (`/links/{token}`); every process that makes links reads their key.
    for (const fn of [api, events, chatbot, mediaConsumer, webhooks]) {
      fn.addEnvironment('PUBLIC_BASE_URL', edge.publicBaseUrl);
      fn.addEnvironment('LINK_SECRET_ARN', linkSecret.secretArn);
      linkSecret.grantRead(fn);
    }
    must(host.taskDefinition.defaultContainer, "the host task's container").addEnvironment(
      'PUBLIC_BASE_URL',
      edge.publicBaseUrl,
    );
    // Named in the API's answer to a stream path that reached it directly (functions/api/handler.ts).
    api.addEnvironment('STREAM_BASE_URL', edge.publicBaseUrl);

    addObservability(this, {
      prefix,
      alarmEmail: props.alarmEmail,
      alarmTopicArn: props.alarmTopicArn,
      hostService: host.service,
      hostTargets: host.targetGroup,
      hostMinTasks: host.minTasks.valueAsNumber,
      httpApi,
    });

    addOutputs(this, { edge, tables: tbl, media, secrets });
  }
}
