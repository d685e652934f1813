import { describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { idleCost, perThousand, type Template, total } from './estimate.ts';
import { HOURS_PER_MONTH, PRICES } from './prices.ts';
import { INBOUND_MESSAGE } from './usage.ts';

/** Two tasks of 0.5 vCPU / 1 GB on ARM64 with public addresses, one ALB in two subnets, no NAT. */
const template: Template = {
  Parameters: { HostDesiredCount: { Default: 2 } },
  Resources: {
    Task: {
      Type: 'AWS::ECS::TaskDefinition',
      Properties: { Cpu: '512', Memory: '1024', RuntimePlatform: { CpuArchitecture: 'ARM64' } },
    },
    Service: {
      Type: 'AWS::ECS::Service',
      Properties: {
        DesiredCount: { Ref: 'HostDesiredCount' },
        TaskDefinition: { Ref: 'Task' },
        NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'ENABLED' } },
      },
    },
    Alb: {
      Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
      Properties: { Scheme: 'internet-facing', Type: 'application', Subnets: ['a', 'b'] },
    },
    Cmd0: { Type: 'AWS::SQS::Queue', Properties: { FifoQueue: true, RedrivePolicy: {} } },
    Cmd0Dlq: { Type: 'AWS::SQS::Queue', Properties: { FifoQueue: true } },
    Events: { Type: 'AWS::SQS::Queue', Properties: { RedrivePolicy: {} } },
    Esm: { Type: 'AWS::Lambda::EventSourceMapping', Properties: {} },
    Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: {} },
    MathAlarm: {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: { Metrics: [{ MetricStat: {} }, { MetricStat: {} }, { Expression: 'a-b' }] },
    },
    Endpoint: {
      Type: 'AWS::EC2::VPCEndpoint',
      Properties: { VpcEndpointType: 'Interface', SubnetIds: ['a', 'b'] },
    },
    Events2: {
      Type: 'AWS::Lambda::Function',
      Properties: { MemorySize: 512, Environment: { Variables: { SERVICE_NAME: 'events' } } },
    },
  },
};
const line = (lines: ReturnType<typeof idleCost>, item: string) =>
  must(
    lines.find((l) => l.item === item),
    `the ${item} line`,
  ).usd;

describe('cost from a template', () => {
  const idle = idleCost(template, { leaseTickMs: 2000, commandWaitSeconds: 20 });

  it('prices the host tasks by their size, architecture and desired count (a parameter default)', () => {
    const arm = PRICES.fargate.arm64;
    expect(line(idle, 'Fargate host tasks')).toBeCloseTo(
      2 * (0.5 * arm.vcpuHour + 1 * arm.gbHour) * HOURS_PER_MONTH,
    );
  });

  it('counts every public address: the load balancer’s subnets and tasks with a public IP', () => {
    expect(line(idle, 'Public IPv4 addresses')).toBeCloseTo(4 * PRICES.publicIpv4Hour * HOURS_PER_MONTH);
    expect(line(idle, 'NAT gateways')).toBe(0);
  });

  it('prices interface endpoints per AZ and alarms per metric they evaluate', () => {
    expect(line(idle, 'VPC endpoints')).toBeCloseTo(2 * PRICES.interfaceEndpointAzHour * HOURS_PER_MONTH);
    expect(line(idle, 'CloudWatch alarms')).toBeCloseTo(3 * PRICES.cloudwatch.alarmMetricMonth);
  });

  it('prices a hosted zone and a web ACL only when the template has them', () => {
    expect(idle.some((l) => l.item === 'Route 53 hosted zones')).toBe(false);
    const withZone = idleCost(
      { ...template, Resources: { ...template.Resources, Zone: { Type: 'AWS::Route53::HostedZone' } } },
      { leaseTickMs: 2000, commandWaitSeconds: 20 },
    );
    expect(line(withZone, 'Route 53 hosted zones')).toBe(PRICES.route53HostedZoneMonth);
  });

  it('lease ticks and command polling follow the code’s timings', () => {
    const slow = idleCost(template, { leaseTickMs: 4000, commandWaitSeconds: 20 });
    expect(line(slow, 'DynamoDB: lease and heartbeat ticks')).toBeCloseTo(
      line(idle, 'DynamoDB: lease and heartbeat ticks') / 2,
    );
    // One command queue (the FIFO queue with a dead-letter queue), read by each of the two hosts
    // (at least one reader a host), a receive every 20 s.
    const receives = (2 * HOURS_PER_MONTH * 3600) / 20;
    expect(line(idle, 'SQS: hosts polling command queues')).toBeCloseTo(
      (receives * PRICES.sqs.perMillionFifo) / 1e6,
    );
    expect(total(idle)).toBeGreaterThan(0);
  });

  it('per 1,000 messages: the functions’ memory from the template, no NAT data without a NAT gateway', () => {
    const lines = perThousand(template, INBOUND_MESSAGE);
    expect(line(lines, 'NAT gateway data')).toBe(0);
    expect(line(lines, 'Lambda')).toBeCloseTo(
      1000 * (0.5 * 0.2 * PRICES.lambdaArm64.gbSecond + PRICES.lambdaArm64.perMillionRequests / 1e6),
    );
    expect(() => perThousand({ Resources: {} }, INBOUND_MESSAGE)).toThrow(/SERVICE_NAME events/);
  });
});
