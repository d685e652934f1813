import { FULL_READ_EVERY, watchedCount } from '../../connection-host/plan-reads.ts';
import { type CostLine, plural } from './lines.ts';
import { CONTAINER_INSIGHTS_METRICS, HOURS_PER_MONTH, PRICES } from './prices.ts';
import { hostPolledQueues, hostServices, resourcesOf, type Template } from './template.ts';
import {
  ESM_IDLE_RECEIVES_PER_MINUTE,
  HOST_LIST_READ_UNITS,
  IDLE_LOG_GB_PER_MONTH,
  LEASE_ITEM_BYTES,
  SMALL_READ_UNITS,
} from './usage.ts';

/*
 * The stack's cost with no traffic: what runs (host tasks, NAT, load balancer, endpoints, alarms,
 * secrets) and what polls (the hosts' lease loop, Lambda's and the hosts' queue receives).
 */

/** What the code decides and the template does not show (scripts/cost.ts reads them from their owners). */
export interface RuntimeFigures {
  /** The hosts' lease loop period (connection-host/shard-leases.ts at the default LEASE_TTL_MS). */
  leaseTickMs: number;
  /** How long a host's receive on a command queue waits (connection-host/command-queues.ts). */
  commandWaitSeconds: number;
}

const MONTH_SECONDS = HOURS_PER_MONTH * 3600;
const MONTH_MINUTES = HOURS_PER_MONTH * 60;

/** The stack's cost a month with no traffic, line by line. */
export function idleCost(t: Template, run: RuntimeFigures): CostLine[] {
  const lines: CostLine[] = [];
  const add = (item: string, basis: string, usd: number) => lines.push({ item, basis, usd });

  const hosts = hostServices(t);
  const taskCount = hosts.reduce((n, h) => n + h.tasks, 0);
  for (const h of hosts) {
    const p = PRICES.fargate[h.arch];
    const hourly = h.vcpu * p.vcpuHour + h.gb * p.gbHour;
    add(
      'Fargate host tasks',
      `${h.tasks} × ${h.vcpu} vCPU / ${h.gb} GB ${h.arch} × $${hourly.toFixed(5)}/h`,
      h.tasks * hourly * HOURS_PER_MONTH,
    );
  }

  const nats = resourcesOf(t, 'AWS::EC2::NatGateway').length;
  add(
    'NAT gateways',
    `${nats} × $${PRICES.natGateway.hour}/h`,
    nats * PRICES.natGateway.hour * HOURS_PER_MONTH,
  );

  const albs = resourcesOf(t, 'AWS::ElasticLoadBalancingV2::LoadBalancer').filter(
    ({ props }) => (props.Type ?? 'application') === 'application',
  );
  add(
    'Application Load Balancer',
    `${albs.length} × $${PRICES.alb.hour}/h (no LCUs idle)`,
    albs.length * PRICES.alb.hour * HOURS_PER_MONTH,
  );

  const albIps = albs
    .filter(({ props }) => props.Scheme === 'internet-facing')
    .reduce(
      (n, { props }) =>
        n + ((props.Subnets as unknown[]) ?? (props.SubnetMappings as unknown[]) ?? []).length,
      0,
    );
  const eips = resourcesOf(t, 'AWS::EC2::EIP').length;
  const taskIps = hosts.filter((h) => h.publicIp).reduce((n, h) => n + h.tasks, 0);
  const ips = albIps + eips + taskIps;
  add(
    'Public IPv4 addresses',
    `${ips} (load balancer ${albIps}, NAT ${eips}, tasks ${taskIps}) × $${PRICES.publicIpv4Hour}/h`,
    ips * PRICES.publicIpv4Hour * HOURS_PER_MONTH,
  );

  const interfaceAzs = resourcesOf(t, 'AWS::EC2::VPCEndpoint')
    .filter(({ props }) => props.VpcEndpointType === 'Interface')
    .reduce((n, { props }) => n + ((props.SubnetIds as unknown[]) ?? []).length, 0);
  const gateways = resourcesOf(t, 'AWS::EC2::VPCEndpoint').filter(
    ({ props }) => props.VpcEndpointType === 'Gateway',
  ).length;
  add(
    'VPC endpoints',
    `${interfaceAzs} interface endpoint-AZs × $${PRICES.interfaceEndpointAzHour}/h; gateway endpoints free (${gateways})`,
    interfaceAzs * PRICES.interfaceEndpointAzHour * HOURS_PER_MONTH,
  );

  const alarms = resourcesOf(t, 'AWS::CloudWatch::Alarm');
  const alarmMetrics = alarms.reduce((n, { props }) => {
    const metrics = props.Metrics as Array<{ MetricStat?: unknown }> | undefined;
    return n + (metrics ? metrics.filter((m) => m.MetricStat).length : 1);
  }, 0);
  add(
    'CloudWatch alarms',
    `${alarms.length} alarms on ${alarmMetrics} metrics × $${PRICES.cloudwatch.alarmMetricMonth}`,
    alarmMetrics * PRICES.cloudwatch.alarmMetricMonth,
  );
  const dashboards = resourcesOf(t, 'AWS::CloudWatch::Dashboard').length;
  add(
    'CloudWatch dashboards',
    `${dashboards} × $${PRICES.cloudwatch.dashboardMonth}`,
    dashboards * PRICES.cloudwatch.dashboardMonth,
  );
  const insightClusters = resourcesOf(t, 'AWS::ECS::Cluster').filter(({ props }) =>
    ((props.ClusterSettings as Array<{ Name: string; Value: string }>) ?? []).some(
      (s) => s.Name === 'containerInsights' && s.Value !== 'disabled',
    ),
  ).length;
  add(
    'Container Insights',
    `${plural(insightClusters, 'cluster')} × ≈ ${CONTAINER_INSIGHTS_METRICS} metrics × $${PRICES.cloudwatch.customMetricMonth}`,
    insightClusters * CONTAINER_INSIGHTS_METRICS * PRICES.cloudwatch.customMetricMonth,
  );

  // Only when the stack has them (a domain of its own, a firewall): no line otherwise.
  const zones = resourcesOf(t, 'AWS::Route53::HostedZone').length;
  if (zones)
    add(
      'Route 53 hosted zones',
      `${zones} × $${PRICES.route53HostedZoneMonth}`,
      zones * PRICES.route53HostedZoneMonth,
    );
  const acls = resourcesOf(t, 'AWS::WAFv2::WebACL').length;
  if (acls)
    add(
      'WAF web ACLs',
      `${acls} × $${PRICES.wafWebAclMonth} (rules and requests extra)`,
      acls * PRICES.wafWebAclMonth,
    );

  const secrets = resourcesOf(t, 'AWS::SecretsManager::Secret').length;
  add('Secrets Manager', `${secrets} secrets × $${PRICES.secretMonth}`, secrets * PRICES.secretMonth);
  const keys = resourcesOf(t, 'AWS::KMS::Key').length;
  add('KMS keys', `${keys} × $${PRICES.kms.keyMonth}`, keys * PRICES.kms.keyMonth);

  // The hosts' lease loop: each tick writes the host's heartbeat (a lease item is written only when
  // its shard changes hands) and reads the plan's version and the next hosts' heartbeats; every
  // lease (one eventually consistent Query of the whole partition) and the host list only when
  // something moved, or every 15-22 ticks at rest (connection-host/plan-reads.ts, leases.ts).
  const leaseShards = Math.max(0, ...hosts.map((h) => h.leaseShards));
  const ticks = taskCount * ((MONTH_SECONDS * 1000) / run.leaseTickMs);
  const writesPerTick = taskCount ? 1 : 0;
  const atRest = SMALL_READ_UNITS * (1 + watchedCount(taskCount));
  const fullRead = Math.ceil((leaseShards * LEASE_ITEM_BYTES) / 4096) * 0.5 + HOST_LIST_READ_UNITS;
  // The mean spacing of the full reads: FULL_READ_EVERY plus a jitter of up to half as many ticks.
  const spacing = FULL_READ_EVERY * 1.22;
  const readsPerTick = Math.round((atRest + (fullRead - atRest) / spacing) * 100) / 100;
  const db = PRICES.dynamodbOnDemand;
  add(
    'DynamoDB: lease and heartbeat ticks',
    `${taskCount} hosts × a tick every ${run.leaseTickMs / 1000} s × (${writesPerTick} writes, ${readsPerTick} reads)`,
    (ticks * writesPerTick * db.perMillionWrites + ticks * readsPerTick * db.perMillionReads) / 1e6,
  );

  const esms = resourcesOf(t, 'AWS::Lambda::EventSourceMapping').length;
  const esmRequests = esms * ESM_IDLE_RECEIVES_PER_MINUTE * MONTH_MINUTES;
  add(
    'SQS: Lambda event sources polling',
    `${esms} mappings × ${ESM_IDLE_RECEIVES_PER_MINUTE} empty receives/min`,
    (esmRequests * PRICES.sqs.perMillionStandard) / 1e6,
  );
  // Every queue is read by the hosts holding its shards; the lease plan gathers each host's shards
  // on few queues (connection-host/shard-plan.ts), so about one reader a queue, at least one a host.
  const queues = hostPolledQueues(t);
  const readers = Math.max(queues, taskCount);
  const hostRequests = readers * (MONTH_SECONDS / run.commandWaitSeconds);
  add(
    'SQS: hosts polling command queues',
    `${queues} FIFO queues, ${readers} readers × a receive every ${run.commandWaitSeconds} s`,
    (hostRequests * PRICES.sqs.perMillionFifo) / 1e6,
  );
  add(
    'CloudWatch Logs ingested idle',
    `≈ ${IDLE_LOG_GB_PER_MONTH} GB (flow-log rejects, host lines) × $${PRICES.cloudwatch.logsIngestedGb}`,
    IDLE_LOG_GB_PER_MONTH * PRICES.cloudwatch.logsIngestedGb,
  );
  return lines;
}
