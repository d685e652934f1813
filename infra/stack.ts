import { ArnFormat, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { allQueues, buckets, commandQueue, type QueueDef, queues, tables } from '#shared/aws/resources';
import { SQS_BATCH_MAX } from '#shared/queue/limits';
import { leaseShardsFor } from '#shared/sessions/shard';
import { addObservability } from './alarms.ts';
import type { DeploymentSettings } from './context.ts';
import { Edge } from './edge.ts';
import { nodeFunction } from './functions.ts';
import { grantMediaRead, grantMediaReadWrite, grantMediaWrite } from './grants.ts';
import { ConnectionHost } from './host.ts';
import { type LogSettings, logGroup } from './log-groups.ts';
import { type QueueWithDlq, queueFrom } from './queues.ts';
import { bucketFrom, tableFrom } from './storage.ts';

export interface SessionManagerStackProps extends StackProps, DeploymentSettings {}

type TableKey = keyof typeof tables;

/** Requests per second across the API, steady and in a burst (`-c apiRateLimit=… -c apiBurstLimit=…`). */
export const API_RATE_LIMIT = 200;
export const API_BURST_LIMIT = 400;

/** The API's access log line (API Gateway `$context` variables). */
export const API_ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  time: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  bytes: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
};

/** The given settings that are set, by name. */
const pick = (from: Record<string, string>, ...keys: string[]) =>
  Object.fromEntries(keys.flatMap((k) => (from[k] ? [[k, from[k]]] : [])));

/** The whole service: storage, queues and functions from shared/aws/resources.ts, the connection host, alarms. */
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
    const queue = (id: string) => q.get(id)!.queue;
    const commandQueues = Array.from({ length: shardCount }, (_, i) => queue(commandQueue(i).id));

    // Secret names are generated: a deleted secret's name stays taken during its recovery window.
    const jwtSecret = new secretsmanager.Secret(this, 'JwtSigningKey', {
      description: 'HS256 key that signs and verifies API tokens (loaded into JWT_SECRET at cold start)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    const adminKey = new secretsmanager.Secret(this, 'AdminApiKey', {
      description: 'The first admin API key (ADMIN_API_KEY), exchanged at POST /api/auth/token',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    // The model and speech providers' keys (docs/deploy.md, "AI keys"): created empty, filled by the
    // operator with `aws secretsmanager put-secret-value`; loaded by the functions at cold start.
    const aiKeys = new secretsmanager.Secret(this, 'AiProviderKeys', {
      description:
        'JSON {ANTHROPIC_API_KEYS, AI_FALLBACK_API_KEYS, STT_API_KEY, SARVAM_API_KEY} (AI_KEYS_SECRET_ARN)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({
          ANTHROPIC_API_KEYS: '',
          AI_FALLBACK_API_KEYS: '',
          STT_API_KEY: '',
          SARVAM_API_KEY: '',
        }),
        generateStringKey: 'unused',
        excludePunctuation: true,
      },
    });
    // Signs the links the service hands out (shared/links): its own key, so the consumers that make
    // links never hold the token signing key.
    const linkSecret = new secretsmanager.Secret(this, 'LinkSigningKey', {
      description: 'HMAC key that signs and verifies the links the service hands out (LINK_SECRET)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    // The distribution sends it to API Gateway with every request; the API serves no request without
    // it (shared/http/edge-origin.ts), so no client goes around the public name.
    const edgeOriginKey = new secretsmanager.Secret(this, 'EdgeOriginKey', {
      description: 'Sent by CloudFront to the API with every request (EDGE_ORIGIN_KEY)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    const service = props.service ?? {};
    const logSettings: LogSettings = { retentionDays: props.logRetentionDays, retain: props.retainLogs };
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
      jwtSecret,
      linkSecret,
      logs: logSettings,
      sizing: props.host,
    });

    const environment = {
      RESOURCE_PREFIX: prefix,
      SHARD_COUNT: String(shardCount),
      LEASE_SHARDS: String(leaseShardsFor(shardCount)),
      ...names,
    };
    const grantCommon = (fn: lambda.IFunction) => {
      tbl.data.grantReadWriteData(fn);
    };

    const api = nodeFunction(this, 'ApiFunction', 'api', {
      environment: {
        ...environment,
        ...pick(service, 'PAYMENT_UPI_ID', 'PAYMENT_UPI_NAME', 'TTS_PROVIDER'),
        ...cors,
        // Only the API signs and verifies tokens.
        JWT_SECRET_ARN: jwtSecret.secretArn,
        ADMIN_API_KEY_ARN: adminKey.secretArn,
      },
      timeout: Duration.seconds(29),
      memorySize: 1024,
      logs: logSettings,
    });
    grantCommon(api);
    jwtSecret.grantRead(api);
    adminKey.grantRead(api);
    grantMediaReadWrite(media, api);
    for (const cq of commandQueues) cq.grantSendMessages(api);
    queue(queues.webhooks.id).grantSendMessages(api);
    // Tenants' own credentials (export settings) are secrets under `<prefix>/tenants/`, made at run time.
    api.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          'secretsmanager:CreateSecret',
          'secretsmanager:PutSecretValue',
          'secretsmanager:GetSecretValue',
          'secretsmanager:DeleteSecret',
          'secretsmanager:TagResource',
        ],
        resources: [
          Stack.of(this).formatArn({
            service: 'secretsmanager',
            resource: 'secret',
            resourceName: `${prefix}/tenants/*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    // /health reads the events queue's attributes; the API never sends to it.
    queue(queues.events.id).grant(api, 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl');

    const httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${prefix}-api`,
      defaultIntegration: new HttpLambdaIntegration('ApiIntegration', api),
      createDefaultStage: false,
    });
    // One line per request: who, what, the answer and the time taken; no headers, bodies or query
    // strings, so no key or token is ever logged.
    const accessLogs = logGroup(this, 'ApiAccessLogs', logSettings);
    new HttpStage(this, 'ApiStage', {
      httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: {
        rateLimit: props.apiRateLimit ?? API_RATE_LIMIT,
        burstLimit: props.apiBurstLimit ?? API_BURST_LIMIT,
      },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(API_ACCESS_LOG_FIELDS)),
      },
    });

    /**
     * An SQS-triggered handler: reads the store and media, reports partial batch failures. Only the
     * connection host uses the auth table (the accounts' keys): no function is granted it.
     */
    const consumer = (
      id: string,
      entry: string,
      def: QueueDef,
      maxConcurrency?: number,
      extraEnvironment: Record<string, string> = {},
      memorySize?: number,
    ) => {
      const fn = nodeFunction(this, id, entry, {
        environment: { ...environment, ...extraEnvironment },
        memorySize,
        timeout: Duration.seconds(def.consumerTimeoutSeconds),
        logs: logSettings,
      });
      grantCommon(fn);
      grantMediaRead(media, fn);
      fn.addEventSource(
        new SqsEventSource(queue(def.id), {
          batchSize: SQS_BATCH_MAX,
          reportBatchItemFailures: true,
          maxConcurrency,
        }),
      );
      return fn;
    };

    // The events consumer makes the first webhook attempts of the messages it stores
    // (shared/webhooks/first-attempts.ts): it queues what is left and the retries, and parks a
    // delivery that fails for good on the webhooks DLQ, as the webhooks consumer does.
    const events = consumer('EventsConsumer', 'events', queues.events);
    queue(queues.webhooks.id).grantSendMessages(events);

    // The chatbot consumer answers inbound messages: reply commands to the session's shard queue,
    // `chatbot.reply` deliveries to the webhooks queue.
    // The model chain's users (the chatbot, media understanding): its settings, its keys and, with a
    // Bedrock model configured, the right to invoke that model only.
    const modelEnvironment = {
      ...pick(service, 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'AI_FALLBACK_KIND', 'AI_FALLBACK_BASE_URL'),
      ...pick(service, 'AI_FALLBACK_MODEL', 'BEDROCK_MODEL_ID'),
      AI_KEYS_SECRET_ARN: aiKeys.secretArn,
    };
    const grantModels = (fn: lambda.IFunction) => {
      aiKeys.grantRead(fn);
      if (!service.BEDROCK_MODEL_ID) return;
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [
            `arn:${Stack.of(this).partition}:bedrock:*::foundation-model/${service.BEDROCK_MODEL_ID}`,
            Stack.of(this).formatArn({
              service: 'bedrock',
              resource: 'inference-profile',
              resourceName: service.BEDROCK_MODEL_ID,
            }),
          ],
        }),
      );
    };
    const chatbot = consumer('ChatbotConsumer', 'chatbot', queues.chatbot, undefined, modelEnvironment);
    grantModels(chatbot);
    for (const cq of commandQueues) cq.grantSendMessages(chatbot);
    // Each version of an extracted record is archived as JSON (shared/chatbot/extraction.ts).
    grantMediaWrite(media, chatbot, 'extractions/');
    queue(queues.webhooks.id).grantSendMessages(chatbot);
    queue(queues.chatbot.id).grantSendMessages(events);

    // Media analysis (docs/media.md): reads the stored media, publishes the analysed message to the
    // webhooks and chatbot queues. OCR's worker, wasm core and language data ship in its bundle.
    const mediaConsumer = consumer(
      'MediaConsumer',
      'media',
      queues.media,
      10,
      { ...modelEnvironment, ...pick(service, 'STT_BASE_URL', 'SARVAM_BASE_URL') },
      1536,
    );
    grantModels(mediaConsumer);
    // Video needs ffmpeg and ffprobe, which the Lambda runtime lacks: from a layer when one is given.
    if (props.ffmpegLayerArn) {
      mediaConsumer.addLayers(
        lambda.LayerVersion.fromLayerVersionArn(this, 'FfmpegLayer', props.ffmpegLayerArn),
      );
      mediaConsumer.addEnvironment('VOICE_FFMPEG_PATH', '/opt/bin/ffmpeg');
      mediaConsumer.addEnvironment('VOICE_FFPROBE_PATH', '/opt/bin/ffprobe');
    }
    queue(queues.webhooks.id).grantSendMessages(mediaConsumer);
    queue(queues.chatbot.id).grantSendMessages(mediaConsumer);
    queue(queues.media.id).grantSendMessages(events);

    // At most 20 deliveries batches at once, so a burst cannot take the account's Lambda concurrency.
    const webhooks = consumer('WebhookConsumer', 'webhooks', queues.webhooks, 20);
    // Retries are new delayed messages on the same queue; the last failure is parked on its DLQ.
    queue(queues.webhooks.id).grantSendMessages(webhooks);
    q.get(queues.webhooks.id)!.deadLetterQueue.grantSendMessages(webhooks);
    q.get(queues.webhooks.id)!.deadLetterQueue.grantSendMessages(events);

    // One public name for the API and the streams (infra/edge.ts): every URL the service hands out
    // starts with it. No cycle: the distribution refers to the HTTP API and the load balancer, neither
    // of which refers to a function or a task (their integration, route and service do).
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
    host.taskDefinition.defaultContainer!.addEnvironment('PUBLIC_BASE_URL', edge.publicBaseUrl);
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

    new CfnOutput(this, 'ApiUrl', {
      value: edge.publicBaseUrl,
      description: 'The public base URL of the API, the SSE streams, speech, links and /docs',
    });
    new CfnOutput(this, 'StreamUrl', {
      value: edge.publicBaseUrl,
      description: 'Base URL of the SSE streams: the same public name as the API',
    });
    new CfnOutput(this, 'DistributionDomainName', {
      value: edge.distribution.distributionDomainName,
      description:
        'Where a CNAME (or Route 53 alias) of domainName points, when the stack does not create it',
    });
    new CfnOutput(this, 'AdminApiKeySecretArn', { value: adminKey.secretArn });
    for (const [key, table] of Object.entries(tbl)) {
      new CfnOutput(this, `${key[0]!.toUpperCase()}${key.slice(1)}TableName`, { value: table.tableName });
    }
    new CfnOutput(this, 'MediaBucketName', { value: media.bucketName });
    new CfnOutput(this, 'JwtSecretArn', { value: jwtSecret.secretArn });
    new CfnOutput(this, 'LinkSecretArn', { value: linkSecret.secretArn });
    new CfnOutput(this, 'AiKeysSecretArn', { value: aiKeys.secretArn });
  }
}
