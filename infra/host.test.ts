import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { allQueues, deadLetterQueueName, queueName } from '#shared/aws/resources';
import { envDefaults } from '#shared/config/env';
import { HOST_LIVENESS_PATH, HOST_PATHS } from '#shared/host/paths';
import { must } from '#shared/must';
import { leaseShardsFor } from '#shared/sessions/shard';
import { COMMAND_WAIT_SECONDS } from '../connection-host/command-queues.ts';
import { leaseTickMs } from '../connection-host/shard-leases.ts';
import { OLDEST_MESSAGE_ALARM_SECONDS } from './alarms.ts';
import { API_ACCESS_LOG_FIELDS, API_BURST_LIMIT, API_RATE_LIMIT } from './api.ts';
import { cdkJsonContext } from './app-context.ts';
import { settingsFromContext } from './context.ts';
import { type Template as CostTemplate, idleCost, total } from './cost/estimate.ts';
import {
  ALB_IDLE_TIMEOUT_SECONDS,
  HOST_HTTP_PORT,
  hostHeapMiB,
  hostMemoryBudgetMb,
  MEMORY_TARGET_PERCENT,
  STOP_TIMEOUT_SECONDS,
} from './host.ts';
import { checkWithNag } from './nag.ts';
import { SessionManagerStack } from './stack.ts';
import { functionEnvs, hostTaskEnv, SERVICE_FUNCTION } from './template-queries.ts';

const prefix = 'hst';
const shardCount = 2;
const domain = {
  domainName: 'wa.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
};
const outdir = mkdtempSync(join(tmpdir(), 'cdk-host-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

// Synth without Docker: the host image is only hashed (built by `cdk deploy`).
const app = new App({
  outdir,
  context: {
    ...cdkJsonContext(),
    prefix,
    shardCount: String(shardCount),
    ...domain,
    alarmEmail: 'ops@example.com',
  },
});
const stack = new SessionManagerStack(app, 'Host', { ...settingsFromContext(app), stackName: prefix });
const template = Template.fromStack(stack);

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const one = (type: string, props: Record<string, unknown> = {}) => {
  const found = template.findResources(type, { Properties: props });
  expect(Object.keys(found), type).toHaveLength(1);
  return must(Object.entries(found)[0], type) as [string, { Properties: Record<string, unknown> }];
};
const queueId = (name: string) => one('AWS::SQS::Queue', { QueueName: name })[0];
const [taskDefId, taskDef] = one('AWS::ECS::TaskDefinition');
const taskRoleId = (taskDef.Properties.TaskRoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
const policyOf = (roleId: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);

describe('connection host on ECS Fargate', () => {
  it('runs the Dockerfile image with the environment, port, logs and stop timeout it needs', () => {
    const container = must(
      (taskDef.Properties.ContainerDefinitions as Array<Record<string, unknown>>)[0],
      'the host container',
    );
    expect(container.StopTimeout).toBe(STOP_TIMEOUT_SECONDS);
    expect(STOP_TIMEOUT_SECONDS).toBeGreaterThanOrEqual(30);
    expect(container.PortMappings).toEqual([{ ContainerPort: HOST_HTTP_PORT, Protocol: 'tcp' }]);
    const env = hostTaskEnv(template);
    expect(env).toMatchObject({
      RESOURCE_PREFIX: prefix,
      SHARD_COUNT: String(shardCount),
      // About 1024 lease shards, a multiple of the queue count (LEASE_SHARDS must be one).
      LEASE_SHARDS: String(leaseShardsFor(shardCount)),
      HOST_HTTP_PORT: String(HOST_HTTP_PORT),
      MESSAGING_DRIVER: 'baileys',
      // The memory budget follows from the task's memory, with headroom.
      HOST_MEMORY_BUDGET_MB: String(hostMemoryBudgetMb(1024)),
    });
    expect(taskDef.Properties.Memory).toBe('1024');
    expect(hostMemoryBudgetMb(1024)).toBeLessThan(1024);
    expect(env.AWS_REGION).toEqual({ Ref: 'AWS::Region' });
    // The heap may use three quarters of the task's 1 GB (V8 alone would take about a quarter).
    expect(env.NODE_OPTIONS).toBe(`--enable-source-maps --max-old-space-size=${hostHeapMiB(1024)}`);
    expect(hostHeapMiB(1024)).toBe(768);
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['DATA_TABLE_NAME', 'AUTH_TABLE_NAME', 'MEDIA_BUCKET_NAME']),
    );
    // The image is an asset in the bootstrap repository: built and pushed only by `cdk deploy`.
    expect(JSON.stringify(container.Image)).toContain('cdk-hnb659fds-container-assets');
    expect(JSON.stringify(container.LogConfiguration)).toContain('awslogs');
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      RequiresCompatibilities: ['FARGATE'],
      NetworkMode: 'awsvpc',
    });
  });

  it('service: min and max tasks from parameters (at least 2), auto-scaled on memory, circuit breaker with rollback, public subnets', () => {
    template.hasParameter('HostMinTasks', { Type: 'Number', Default: 2, MinValue: 2 });
    template.hasParameter('HostMaxTasks', { Type: 'Number', Default: 10, MinValue: 2 });
    const [, service] = one('AWS::ECS::Service');
    // Auto-scaling owns the count: a deploy must not reset it.
    expect(service.Properties.DesiredCount).toBeUndefined();
    template.hasResourceProperties('AWS::ECS::Service', {
      LaunchType: 'FARGATE',
      TaskDefinition: { Ref: taskDefId },
      DeploymentConfiguration: Match.objectLike({
        DeploymentCircuitBreaker: { Enable: true, Rollback: true },
        MinimumHealthyPercent: 100,
      }),
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
    });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      MinCapacity: { Ref: 'HostMinTasks' },
      MaxCapacity: { Ref: 'HostMaxTasks' },
      ScalableDimension: 'ecs:service:DesiredCount',
    });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        TargetValue: MEMORY_TARGET_PERCENT,
        PredefinedMetricSpecification: { PredefinedMetricType: 'ECSServiceAverageMemoryUtilization' },
      }),
    });
    // The target keeps the hosts under their budget, so scaling out comes before any host refuses work.
    expect(MEMORY_TARGET_PERCENT).toBeLessThan((hostMemoryBudgetMb(1024) / 1024) * 100);
    // Container Insights is a setting (infra/host-settings.ts), off by default.
    template.hasResourceProperties('AWS::ECS::Cluster', {
      ClusterSettings: [{ Name: 'containerInsights', Value: 'disabled' }],
    });
    // Half a vCPU and 1 GB on Graviton by default; the image is built for the same platform.
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '512',
      Memory: '1024',
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
    });
  });

  it('tasks in public subnets accept only the load balancer: their security group has no other ingress', () => {
    const service = must(Object.values(template.findResources('AWS::ECS::Service'))[0], 'the ECS service');
    const groups = service.Properties.NetworkConfiguration.AwsvpcConfiguration.SecurityGroups as Array<{
      'Fn::GetAtt': [string, string];
    }>;
    expect(groups).toHaveLength(1);
    const sgId = must(groups[0], "the tasks' security group")['Fn::GetAtt'][0];
    expect(template.toJSON().Resources[sgId].Properties.SecurityGroupIngress).toBeUndefined();
    const ingress = Object.values(
      template.findResources('AWS::EC2::SecurityGroupIngress', {
        Properties: { GroupId: { 'Fn::GetAtt': [sgId, 'GroupId'] } },
      }),
    );
    expect(ingress).toHaveLength(1);
    const [albSg] = one('AWS::EC2::SecurityGroup', {
      GroupDescription: Match.stringLikeRegexp('Alb'),
    });
    expect(must(ingress[0], 'the ingress rule').Properties).toMatchObject({
      IpProtocol: 'tcp',
      FromPort: HOST_HTTP_PORT,
      ToPort: HOST_HTTP_PORT,
      SourceSecurityGroupId: { 'Fn::GetAtt': [albSg, 'GroupId'] },
    });
  });

  it('VPC without a NAT gateway: the internet gateway, and DynamoDB/S3 gateway endpoints', () => {
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::EIP', 0);
    template.resourceCountIs('AWS::EC2::InternetGateway', 1);
    const endpoints = Object.values(template.findResources('AWS::EC2::VPCEndpoint'));
    expect(endpoints.map((e) => e.Properties.VpcEndpointType)).toEqual(['Gateway', 'Gateway']);
    const services = JSON.stringify(endpoints.map((e) => e.Properties.ServiceName));
    expect(services).toContain('.dynamodb');
    expect(services).toContain('.s3');
  });

  it('task role: both tables, consuming its command queues, sending events, the bucket, reading the token and link keys; nothing else', () => {
    const statements = policyOf(taskRoleId);
    const actions = statements.flatMap((s) => [s.Action].flat());
    for (const a of actions) expect(a, 'no wildcard service actions').not.toMatch(/^[a-z0-9]+:\*$|^\*$/);
    // Two secrets only: the token signing key (tokens on the stream and speech paths it serves) and
    // the link signing key (media links in the streams, speech links).
    const secretReads = statements.filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'));
    const read = secretReads.flatMap((s) => [s.Resource].flat()).map((r) => JSON.stringify(r));
    expect(read).toHaveLength(2);
    expect(read.some((r) => r.includes('JwtSigningKey'))).toBe(true);
    expect(read.some((r) => r.includes('LinkSigningKey'))).toBe(true);
    const on = (id: string) => statements.filter((s) => JSON.stringify(s.Resource).includes(id));
    for (let shard = 0; shard < shardCount; shard++) {
      const acts = on(queueId(`${prefix}-commands-${shard}.fifo`)).flatMap((s) => [s.Action].flat());
      expect(acts).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
      expect(acts).not.toContain('sqs:SendMessage');
    }
    const events = on(queueId(`${prefix}-events`)).flatMap((s) => [s.Action].flat());
    expect(events).toContain('sqs:SendMessage');
    expect(events).not.toContain('sqs:ReceiveMessage');
    expect(on(queueId(`${prefix}-webhooks`))).toHaveLength(0);
    expect(on(queueId(`${prefix}-chatbot`))).toHaveLength(0);
    const tables = Object.keys(template.findResources('AWS::DynamoDB::Table'));
    for (const t of tables) expect(on(t).length).toBeGreaterThan(0);
    const bucketActs = on(one('AWS::S3::Bucket')[0]).flatMap((s) => [s.Action].flat());
    expect(new Set(bucketActs)).toEqual(
      new Set([
        's3:GetObject',
        's3:PutObject',
        's3:DeleteObject',
        's3:AbortMultipartUpload',
        's3:ListBucket',
      ]),
    );
  });

  it('only the host task role has rights on the auth table (the accounts keys)', () => {
    const authId = Object.keys(
      template.findResources('AWS::DynamoDB::Table', {
        Properties: { GlobalSecondaryIndexes: Match.absent() },
      }),
    );
    expect(authId).toHaveLength(1);
    const holders = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes(`"${authId[0]}"`),
    );
    expect(holders.map((p) => JSON.stringify(p.Properties.Roles))).toEqual([
      JSON.stringify([{ Ref: taskRoleId }]),
    ]);
  });

  it('no IAM statement in the stack grants a wildcard action on a data resource', () => {
    for (const p of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const st of p.Properties.PolicyDocument.Statement as Statement[]) {
        // No `*` at all in an action on data (s3:GetObject*, dynamodb:*, sqs:*, …): each is named.
        for (const a of [st.Action].flat())
          expect(a).not.toMatch(/^(dynamodb|sqs|s3|secretsmanager):.*\*|^\*$/);
      }
    }
  });
});

describe('SSE behind the Application Load Balancer', () => {
  it('internal (reached through CloudFront only), idle timeout above the 15 s heartbeat', () => {
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
      Scheme: 'internal',
      LoadBalancerAttributes: Match.arrayWith([
        { Key: 'idle_timeout.timeout_seconds', Value: String(ALB_IDLE_TIMEOUT_SECONDS) },
      ]),
    });
    expect(ALB_IDLE_TIMEOUT_SECONDS).toBeGreaterThan(15);
  });

  it('one HTTP listener for CloudFront (which ends TLS on the public name), no redirect anywhere', () => {
    const listeners = Object.values(template.findResources('AWS::ElasticLoadBalancingV2::Listener'));
    expect(listeners).toHaveLength(1);
    expect(must(listeners[0], 'the listener').Properties).toMatchObject({
      Port: 80,
      Protocol: 'HTTP',
      DefaultActions: [expect.objectContaining({ Type: 'fixed-response' })],
    });
    expect(JSON.stringify(listeners)).not.toContain('redirect');
  });

  it('only the stream paths go to the host tasks; liveness (no dependency) is their health check', () => {
    const [tgId] = one('AWS::ElasticLoadBalancingV2::TargetGroup', {
      Port: HOST_HTTP_PORT,
      TargetType: 'ip',
      HealthCheckPath: '/health/live',
      HealthCheckTimeoutSeconds: 5,
      UnhealthyThresholdCount: 3,
      TargetGroupAttributes: Match.arrayWith([{ Key: 'deregistration_delay.timeout_seconds', Value: '30' }]),
    });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::ListenerRule', {
      Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: HOST_PATHS } }],
      Actions: [Match.objectLike({ Type: 'forward', TargetGroupArn: { Ref: tgId } })],
    });
    expect(HOST_PATHS).toContain('/api/public/portal/*/stream');
    expect(HOST_LIVENESS_PATH).toBe('/health/live');
    // ECS replaces a task on the load balancer's verdict alone: no container check that could call a dependency.
    const task = one('AWS::ECS::TaskDefinition')[1].Properties as {
      ContainerDefinitions: Array<{ HealthCheck?: unknown }>;
    };
    expect(task.ContainerDefinitions.map((c) => c.HealthCheck)).toEqual([undefined]);
    template.hasResourceProperties('AWS::ECS::Service', { HealthCheckGracePeriodSeconds: 60 });
    template.hasResourceProperties('AWS::ECS::Service', {
      LoadBalancers: [
        { ContainerName: 'host', ContainerPort: HOST_HTTP_PORT, TargetGroupArn: { Ref: tgId } },
      ],
    });
  });

  it('the API function knows the public stream URL (it names it when a stream path reaches it)', () => {
    const api = must(
      Object.values(
        template.findResources('AWS::Lambda::Function', {
          Properties: { Environment: { Variables: Match.objectLike({ SERVICE_NAME: 'api' }) } },
        }),
      )[0],
      'the API function',
    );
    expect(api.Properties.Environment.Variables.STREAM_BASE_URL).toBe('https://wa.example.com');
  });
});

describe('consumers', () => {
  it('the webhook consumer is capped at 20 concurrent batches; the others are not', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId(`${prefix}-webhooks`), 'Arn'] },
      ScalingConfig: { MaximumConcurrency: 20 },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId(`${prefix}-events`), 'Arn'] },
      ScalingConfig: Match.absent(),
    });
  });
});

describe('first admin', () => {
  it('the admin API key is generated in Secrets Manager and only the API function reads it', () => {
    const [secretId] = one('AWS::SecretsManager::Secret', {
      Description: Match.stringLikeRegexp('admin API key'),
    });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Description: Match.stringLikeRegexp('admin API key'),
      Name: Match.absent(),
      GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
    });
    const withKey = functionEnvs(template).filter((v) => v.ADMIN_API_KEY_ARN);
    expect(withKey).toHaveLength(1);
    expect(must(withKey[0], 'the function with the admin key')).toMatchObject({
      SERVICE_NAME: 'api',
      ADMIN_API_KEY_ARN: { Ref: secretId },
    });
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p).includes(`{"Ref":"${secretId}"}`),
    );
    expect(readers).toHaveLength(1);
    template.hasOutput('AdminApiKeySecretArn', { Value: { Ref: secretId } });
  });
});

describe('alarms', () => {
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
  const topicId = one('AWS::SNS::Topic')[0];

  it('every alarm notifies the SNS topic; the e-mail is subscribed', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const a of alarms) expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
  });

  it('every queue: a DLQ alarm and an oldest-message age alarm', () => {
    for (const def of allQueues(shardCount)) {
      const id = queueId(queueName(prefix, def));
      expect(
        alarms.filter(
          (a) =>
            a.Properties.MetricName === 'ApproximateAgeOfOldestMessage' &&
            JSON.stringify(a.Properties.Dimensions).includes(id),
        ),
        def.id,
      ).toHaveLength(1);
    }
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Threshold: OLDEST_MESSAGE_ALARM_SECONDS,
    });
    expect(
      alarms.filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible'),
    ).toHaveLength(allQueues(shardCount).length);
  });

  it('every Lambda function: errors and throttles', () => {
    const fnIds = Object.keys(template.findResources('AWS::Lambda::Function', SERVICE_FUNCTION));
    for (const metric of ['Errors', 'Throttles']) {
      const covered = alarms
        .filter((a) => a.Properties.MetricName === metric && a.Properties.Namespace === 'AWS/Lambda')
        .map((a) => JSON.stringify(a.Properties.Dimensions));
      for (const id of fnIds)
        expect(
          covered.some((d) => d.includes(id)),
          `${metric} ${id}`,
        ).toBe(true);
    }
  });

  it('a host past its memory budget', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: prefix,
      MetricName: 'HostFullBeats',
      Dimensions: [{ Name: 'Service', Value: 'connection-host' }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('API 5xx and host tasks running below desired', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
    });
    // Healthy targets (a free load balancer metric) below the desired count, no data counting as too few.
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApplicationELB',
      MetricName: 'HealthyHostCount',
      Statistic: 'Minimum',
      Threshold: { Ref: 'HostMinTasks' },
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 5,
      TreatMissingData: 'breaching',
    });
    // Created once the service is stable: a first deploy's tasks becoming healthy page no one.
    const [alarmId] = Object.keys(
      template.findResources('AWS::CloudWatch::Alarm', { Properties: { MetricName: 'HealthyHostCount' } }),
    );
    const [serviceId] = Object.keys(template.findResources('AWS::ECS::Service'));
    expect(template.toJSON().Resources[must(alarmId, 'the healthy hosts alarm')].DependsOn).toContain(
      serviceId,
    );
  });
});

describe('hardening', () => {
  it('cdk-nag (AwsSolutions): no error or warning left without a written reason', () => {
    const nagApp = new App({
      outdir: join(outdir, 'nag'),
      context: { ...cdkJsonContext(), prefix: 'nag', shardCount: '2', ...domain },
    });
    const nagStack = new SessionManagerStack(nagApp, 'Nag', {
      ...settingsFromContext(nagApp),
      stackName: 'nag',
    });
    checkWithNag(nagStack);
    const findings = [
      ...Annotations.fromStack(nagStack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')),
      ...Annotations.fromStack(nagStack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')),
    ].map((f) => `${f.id}: ${String(f.entry.data).slice(0, 120)}`);
    expect(findings).toEqual([]);
    // The suppressions are there, each with its reason (a finding fixed later makes its entry unused, not wrong).
    const suppressed = JSON.stringify(Template.fromStack(nagStack).toJSON());
    expect(suppressed).toContain('AwsSolutions-IAM5');
  }, 120_000); // a second synthesis under cdk-nag: 27 s alone, longer beside a busy suite

  it('the auth table (the accounts keys) is encrypted with its own rotated KMS key, used only by the host', () => {
    const [keyId] = one('AWS::KMS::Key', { EnableKeyRotation: true });
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: Match.anyValue(),
      GlobalSecondaryIndexes: Match.absent(),
      SSESpecification: {
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
      },
    });
    const users = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes(keyId),
    );
    expect(users).toHaveLength(1);
    expect(JSON.stringify(must(users[0], 'the policy using the key').Properties.Roles)).toContain(taskRoleId);
  });

  it('API: throttled, and one access log line per request with no headers, query or body', () => {
    const [, stage] = one('AWS::ApiGatewayV2::Stage', { StageName: '$default', AutoDeploy: true });
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: API_RATE_LIMIT,
      ThrottlingBurstLimit: API_BURST_LIMIT,
    });
    const settings = stage.Properties.AccessLogSettings as { Format: string; DestinationArn: unknown };
    expect(JSON.parse(settings.Format)).toEqual(API_ACCESS_LOG_FIELDS);
    expect(settings.Format).not.toMatch(/header|querystring|body|authorizer/i);
    expect(JSON.stringify(settings.DestinationArn)).toContain('ApiAccessLogs');
  });

  it('VPC flow logs record refused traffic', () => {
    template.hasResourceProperties('AWS::EC2::FlowLog', { TrafficType: 'REJECT' });
  });

  it('the chatbot consumer may write extraction archives only; the other consumers only read media', () => {
    const fns = template.findResources('AWS::Lambda::Function', SERVICE_FUNCTION);
    const statementsOf = (service: string) => {
      const fn = must(
        Object.values(fns).find((f) => f.Properties.Environment.Variables.SERVICE_NAME === service),
        `the ${service} function`,
      );
      return policyOf(fn.Properties.Role['Fn::GetAtt'][0]);
    };
    const writes = (service: string) =>
      statementsOf(service).filter((s) => [s.Action].flat().includes('s3:PutObject'));
    expect(writes('chatbot')).toHaveLength(1);
    expect(JSON.stringify(must(writes('chatbot')[0], "the chatbot's write").Resource)).toContain(
      '/extractions/*',
    );
    for (const service of ['events', 'webhooks', 'media']) expect(writes(service)).toEqual([]);
  });
});

describe('cost (npm run cost)', () => {
  it('idles at $100 a month or less with the default settings, at the code’s own timings', () => {
    const idle = idleCost(template.toJSON() as CostTemplate, {
      leaseTickMs: leaseTickMs(envDefaults().LEASE_TTL_MS),
      commandWaitSeconds: COMMAND_WAIT_SECONDS,
    });
    expect(total(idle)).toBeLessThanOrEqual(100);
    expect(
      must(
        idle.find((l) => l.item === 'NAT gateways'),
        'the NAT gateways line',
      ).usd,
    ).toBe(0);
  });
});

describe('dashboard and metrics', () => {
  it('one dashboard: service counters, queue ages, dead letters, API, functions and host tasks', () => {
    const [, dash] = one('AWS::CloudWatch::Dashboard', { DashboardName: prefix });
    const body = JSON.stringify(dash.Properties.DashboardBody);
    for (const metric of [
      'MessagesAccepted',
      'MessagesSent',
      'MessagesDelivered',
      'MessagesFailed',
      'MessagesReceived',
      'WebhookAttempts',
      'WebhookFailures',
      'ApproximateAgeOfOldestMessage',
      'ApproximateNumberOfMessagesVisible',
      'HealthyHostCount',
      'CPUUtilization',
      'MemoryUtilization',
    ])
      expect(body, metric).toContain(metric);
    // Every queue is on it (its oldest message's age), and every dead-letter queue (its depth).
    for (const q of allQueues(shardCount)) {
      expect(body).toContain(queueId(queueName(prefix, q)));
      expect(body).toContain(queueId(deadLetterQueueName(prefix, q)));
    }
  });

  it('the functions and the host write their counters as embedded metrics', () => {
    for (const env of functionEnvs(template)) expect(env.METRICS_FORMAT).toBe('emf');
    expect(hostTaskEnv(template).METRICS_FORMAT).toBe('emf');
  });
});
