import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allQueues,
  buckets,
  deadLetterQueueName,
  queueName,
  queues,
  type TableDef,
  tables,
} from '#shared/aws/resources';
import { must } from '#shared/must';
import { leaseShardsFor } from '#shared/sessions/shard';
import { cdkJsonContext } from './app-context.ts';
import { settingsFromContext } from './context.ts';
import { SessionManagerStack } from './stack.ts';
import { functionEnvs, SERVICE_FUNCTION } from './template-queries.ts';

const prefix = 'test';
const shardCount = 3;

// Every App writes an assembly directory; keep them all under one temporary root.
const outRoot = mkdtempSync(join(tmpdir(), 'cdk-stack-test-'));
let apps = 0;
const newApp = (context: Record<string, string> = {}) =>
  new App({ context: { ...cdkJsonContext(), ...context }, outdir: join(outRoot, String(apps++)) });
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

// One synth for the whole file: Lambda bundling runs here (local esbuild, about a second).
const app = newApp({ prefix, shardCount: String(shardCount) });
const settings = settingsFromContext(app);
const stack = new SessionManagerStack(app, 'Test', { ...settings, stackName: prefix });
const template = Template.fromStack(stack);

function logicalId(type: string, props: Record<string, unknown>): string {
  const found = Object.keys(template.findResources(type, { Properties: props }));
  expect(found, `${type} ${JSON.stringify(props)}`).toHaveLength(1);
  return must(found[0], type);
}

const queueId = (name: string) => logicalId('AWS::SQS::Queue', { QueueName: name });
const jwtSecretId = () =>
  logicalId('AWS::SecretsManager::Secret', { Description: Match.stringLikeRegexp('^HS256 key') });

describe('context', () => {
  it('reads prefix and shard count, with defaults', () => {
    expect(settings).toEqual({ prefix, shardCount, retainData: true });
    expect(settingsFromContext(newApp())).toEqual({ prefix: 'wsm', shardCount: 4, retainData: true });
    expect(
      settingsFromContext(
        newApp({
          retainData: 'false',
          domainName: 'wa.example.com',
          certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/c',
          alarmEmail: 'ops@example.com',
        }),
      ),
    ).toEqual({
      prefix: 'wsm',
      shardCount: 4,
      retainData: false,
      domainName: 'wa.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/c',
      alarmEmail: 'ops@example.com',
    });
  });

  it('rejects a prefix that cannot name a bucket and a bad shard count', () => {
    expect(() => settingsFromContext(newApp({ prefix: 'Bad_Prefix' }))).toThrow(/prefix/);
    expect(() => settingsFromContext(newApp({ shardCount: '0' }))).toThrow(/shardCount/);
  });
});

describe('DynamoDB tables', () => {
  it('creates one table per definition', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', Object.keys(tables).length);
  });

  it('data table: keys, GSIs with ALL projection, TTL, PITR, on demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: Match.absent(),
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'gsi2sk', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('every table matches its shared definition (keys, indexes, TTL); names generated, deletion protection', () => {
    for (const def of Object.values(tables)) {
      const ttl = (def as TableDef).ttlAttribute;
      template.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        Properties: {
          TableName: Match.absent(),
          DeletionProtectionEnabled: true,
          KeySchema: [
            { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
            { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: def.indexes.length
            ? def.indexes.map((i) => Match.objectLike({ IndexName: i.indexName }))
            : Match.absent(),
          TimeToLiveSpecification: ttl ? { AttributeName: ttl, Enabled: true } : Match.absent(),
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        },
      });
    }
  });
});

describe('SQS queues', () => {
  const defs = allQueues(shardCount);

  it('creates each queue and its dead-letter queue, nothing else', () => {
    template.resourceCountIs('AWS::SQS::Queue', defs.length * 2);
  });

  it('every queue redrives to its own DLQ after the defined receive count', () => {
    for (const def of defs) {
      const dlqId = queueId(deadLetterQueueName(prefix, def));
      template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: queueName(prefix, def),
        VisibilityTimeout: def.visibilityTimeoutSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
          maxReceiveCount: def.maxReceiveCount,
        },
      });
    }
    expect(defs.find((d) => d.id === 'webhooks')?.maxReceiveCount).toBe(queues.webhooks.maxReceiveCount);
  });

  it('one FIFO command queue per shard, each with a FIFO DLQ', () => {
    for (let shard = 0; shard < shardCount; shard++) {
      template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: `test-commands-${shard}.fifo`,
        FifoQueue: true,
      });
      template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: `test-commands-${shard}-dlq.fifo`,
        FifoQueue: true,
      });
    }
    expect(
      Object.keys(template.findResources('AWS::SQS::Queue', { Properties: { FifoQueue: true } })),
    ).toHaveLength(shardCount * 2);
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'test-events',
      FifoQueue: Match.absent(),
    });
  });

  it('every queue denies requests without TLS', () => {
    template.resourceCountIs('AWS::SQS::QueuePolicy', defs.length * 2);
    template.allResourcesProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('an alarm fires on the first message in any DLQ', () => {
    const dlqAlarms = template.findResources('AWS::CloudWatch::Alarm', {
      Properties: { MetricName: 'ApproximateNumberOfMessagesVisible' },
    });
    expect(Object.keys(dlqAlarms)).toHaveLength(defs.length);
    for (const def of defs) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [queueId(deadLetterQueueName(prefix, def)), 'QueueName'] },
          },
        ],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        EvaluationPeriods: 1,
      });
    }
  });
});

describe('media bucket', () => {
  it('is private, encrypted, TLS only, and expires uploads, speech, exports and payment QRs', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: Match.absent(),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith(
          buckets.media.expiring.map(({ prefix, days }) =>
            Match.objectLike({ Prefix: prefix, ExpirationInDays: days, Status: 'Enabled' }),
          ),
        ),
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('functions', () => {
  const consumers = 4;

  it('API and consumers: Node 24 on ARM64, ESM bundle, shared environment', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function', SERVICE_FUNCTION));
    expect(fns).toHaveLength(1 + consumers);
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Environment: {
          Variables: {
            RESOURCE_PREFIX: prefix,
            SHARD_COUNT: String(shardCount),
            // About 1024 lease shards, a multiple of the queue count (LEASE_SHARDS must be one).
            LEASE_SHARDS: String(leaseShardsFor(shardCount)),
            DATA_TABLE_NAME: {
              Ref: logicalId('AWS::DynamoDB::Table', { GlobalSecondaryIndexes: Match.anyValue() }),
            },
            MEDIA_BUCKET_NAME: { Ref: logicalId('AWS::S3::Bucket', {}) },
            NODE_OPTIONS: '--enable-source-maps',
          },
        },
      });
      // Its own role, writing to its own log group: no AWSLambdaBasicExecutionRole (any log group).
      expect(JSON.stringify(template.toJSON().Resources[fn.Properties.Role['Fn::GetAtt'][0]])).not.toContain(
        'AWSLambdaBasicExecutionRole',
      );
    }
  });

  it('JWT signing key is generated in Secrets Manager and given to the API and the host, not the consumers (they never use it)', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: Match.absent(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
    });
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p).includes(`{"Ref":"${jwtSecretId()}"}`),
    );
    // The API function's role and the host's task role.
    expect(readers).toHaveLength(2);
    for (const policy of readers) expect(JSON.stringify(policy)).toContain('secretsmanager:GetSecretValue');
    const withJwt = functionEnvs(template).filter((v) => v.JWT_SECRET_ARN);
    expect(withJwt).toHaveLength(1);
  });

  it('events consumer reads the events queue in batches of 10 with per-record failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId('test-events'), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', consumers);
  });

  it('webhook and events consumers re-queue retries and park final failures on the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId('test-webhooks'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const sendsTo = (queue: string) =>
      Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
        (
          p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>
        ).some(
          (st) =>
            [st.Action].flat().includes('sqs:SendMessage') &&
            JSON.stringify(st.Resource).includes(queueId(queue)),
        ),
      ).length;
    // API, events, chatbot and media consumers enqueue deliveries; the webhook consumer re-queues them.
    expect(sendsTo('test-webhooks')).toBe(5);
    // The webhook consumer, and the events consumer, which makes the first attempts itself.
    expect(sendsTo('test-webhooks-dlq')).toBe(2);
  });

  it('chatbot consumer reads the chatbot queue and sends reply commands to every shard queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId('test-chatbot'), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'test-chatbot',
      FifoQueue: Match.absent(),
      RedrivePolicy: Match.objectLike({ maxReceiveCount: queues.chatbot.maxReceiveCount }),
    });
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const sendsTo = (queue: string) =>
      policies.filter((p) =>
        (
          p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>
        ).some(
          (st) =>
            [st.Action].flat().includes('sqs:SendMessage') &&
            JSON.stringify(st.Resource).includes(queueId(queue)),
        ),
      ).length;
    // The events consumer queues chatbot jobs, and the media consumer for analysed messages.
    expect(sendsTo('test-chatbot')).toBe(2);
    // Only the events consumer queues media jobs.
    expect(sendsTo('test-media')).toBe(1);
    // The API and the chatbot consumer send commands to each shard.
    for (let shard = 0; shard < shardCount; shard++) expect(sendsTo(`test-commands-${shard}.fifo`)).toBe(2);
  });

  it('media consumer: its own queue with a DLQ, 1536 MB, its consumer time as its timeout', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId('test-media'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'test-media',
      VisibilityTimeout: queues.media.visibilityTimeoutSeconds,
      RedrivePolicy: Match.objectLike({ maxReceiveCount: queues.media.maxReceiveCount }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      MemorySize: 1536,
      Timeout: queues.media.consumerTimeoutSeconds,
      Environment: { Variables: Match.objectLike({ SERVICE_NAME: 'media' }) },
    });
  });

  it('every queue stays invisible at least 6× its consumer’s timeout', () => {
    for (const def of allQueues(shardCount))
      expect(def.visibilityTimeoutSeconds, def.id).toBeGreaterThanOrEqual(6 * def.consumerTimeoutSeconds);
    const fns = template.findResources('AWS::Lambda::Function', SERVICE_FUNCTION);
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.length).toBe(4);
    for (const m of mappings) {
      const fn = must(fns[m.Properties.FunctionName.Ref], 'the function of an event source mapping');
      const queue = template.toJSON().Resources[m.Properties.EventSourceArn['Fn::GetAtt'][0]];
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Properties.Timeout);
    }
  });

  it('HTTP API routes everything ($default) to the API function', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', Name: 'test-api' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
    });
  });
});

describe('service settings and keys', () => {
  const configured = newApp({
    prefix: 'svc',
    shardCount: '1',
    anthropicModel: 'claude-sonnet-4-5',
    aiFallbackKind: 'openai',
    aiFallbackBaseUrl: 'https://llm.example.com/v1',
    bedrockModelId: 'anthropic.claude-haiku-4-5-v1:0',
    paymentUpiId: 'clinic@upi',
    paymentUpiName: 'Sunrise Clinic',
    ffmpegLayerArn: 'arn:aws:lambda:eu-west-1:123456789012:layer:ffmpeg:3',
    alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ops-paging',
    apiRateLimit: '50',
  });
  const t = Template.fromStack(
    new SessionManagerStack(configured, 'Svc', { ...settingsFromContext(configured), stackName: 'svc' }),
  );
  type Fn = { Properties: { Environment: { Variables: Record<string, unknown> } } };
  const fnWith = (name: string): Array<[string, Fn]> =>
    (
      Object.entries(t.findResources('AWS::Lambda::Function', SERVICE_FUNCTION)) as Array<[string, Fn]>
    ).filter(([, f]) => f.Properties.Environment.Variables[name] !== undefined);
  const statements = () =>
    Object.values(t.findResources('AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>,
    );

  it('the model chain users (chatbot and media consumers) get the model settings and the AI keys secret; only they may invoke the Bedrock model', () => {
    const [, chatbot] = must(fnWith('AI_KEYS_SECRET_ARN')[0], 'a function with the AI keys');
    expect(fnWith('AI_KEYS_SECRET_ARN')).toHaveLength(2);
    expect(chatbot.Properties.Environment.Variables).toMatchObject({
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
      AI_FALLBACK_KIND: 'openai',
      AI_FALLBACK_BASE_URL: 'https://llm.example.com/v1',
      BEDROCK_MODEL_ID: 'anthropic.claude-haiku-4-5-v1:0',
    });
    t.hasResourceProperties('AWS::SecretsManager::Secret', {
      Description: Match.stringLikeRegexp('ANTHROPIC_API_KEYS'),
      GenerateSecretString: Match.objectLike({
        SecretStringTemplate: Match.stringLikeRegexp('ANTHROPIC_API_KEYS'),
      }),
    });
    const invoke = statements().filter((st) => [st.Action].flat().includes('bedrock:InvokeModel'));
    expect(invoke).toHaveLength(2);
    const { Resource } = must(invoke[0], 'a bedrock:InvokeModel statement');
    expect(JSON.stringify(Resource)).toContain('foundation-model/anthropic.claude-haiku-4-5-v1:0');
    expect(JSON.stringify(Resource)).not.toContain('foundation-model/*');
  });

  it('the API gets the default payee and may manage only the tenants’ own secrets', () => {
    const [, apiFn] = must(fnWith('ADMIN_API_KEY_ARN')[0], 'the function with the admin key');
    expect(apiFn.Properties.Environment.Variables).toMatchObject({
      PAYMENT_UPI_ID: 'clinic@upi',
      PAYMENT_UPI_NAME: 'Sunrise Clinic',
    });
    const tenantSecrets = statements().filter((st) =>
      [st.Action].flat().includes('secretsmanager:CreateSecret'),
    );
    expect(tenantSecrets).toHaveLength(1);
    expect(JSON.stringify(must(tenantSecrets[0], 'the tenant secrets statement').Resource)).toContain(
      ':secret:svc/tenants/*',
    );
  });

  it('with an ffmpeg layer the media consumer gets it and the paths to its binaries; throttling from context', () => {
    const media = must(fnWith('VOICE_FFPROBE_PATH')[0], 'the media consumer')[1] as Fn & {
      Properties: { Layers: unknown };
    };
    expect(media.Properties.Environment.Variables).toMatchObject({
      SERVICE_NAME: 'media',
      VOICE_FFMPEG_PATH: '/opt/bin/ffmpeg',
      VOICE_FFPROBE_PATH: '/opt/bin/ffprobe',
    });
    expect(media.Properties.Layers).toEqual(['arn:aws:lambda:eu-west-1:123456789012:layer:ffmpeg:3']);
    expect(fnWith('VOICE_FFPROBE_PATH')).toHaveLength(1);
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 400 },
    });
  });

  it('with an alarm topic given, every alarm notifies it and no topic is created', () => {
    t.resourceCountIs('AWS::SNS::Topic', 0);
    const alarms = Object.values(t.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(10);
    for (const a of alarms)
      expect(a.Properties.AlarmActions).toEqual(['arn:aws:sns:eu-west-1:123456789012:ops-paging']);
  });

  it('without a Bedrock model no function may invoke Bedrock', () => {
    expect(
      Object.values(template.findResources('AWS::IAM::Policy')).some((p) =>
        JSON.stringify(p).includes('bedrock:InvokeModel'),
      ),
    ).toBe(false);
  });
});

describe('outputs', () => {
  it('API URL, table names and bucket name', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        'ApiUrl',
        'StreamUrl',
        'AdminApiKeySecretArn',
        'DataTableName',
        'AuthTableName',
        'MediaBucketName',
      ]),
    );
  });
});
