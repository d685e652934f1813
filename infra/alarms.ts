import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';

/** The service's own metrics (shared/metrics/metrics.ts), namespace `<prefix>`, dimension Service. */
function serviceMetric(prefix: string, name: string, service: string, statistic = 'Sum') {
  return new cloudwatch.Metric({
    namespace: prefix,
    metricName: name,
    dimensionsMap: { Service: service },
    period: Duration.minutes(5),
    statistic,
  });
}

/**
 * One dashboard, `<prefix>`: messages (accepted, sent, delivered, failed, received), webhooks
 * (attempts, delivered, failed), the age of the oldest message in each queue, dead-letter depths,
 * the API (requests, 5xx, latency), every function's errors and duration, and the host tasks.
 */
function addDashboard(scope: Construct, props: ObservabilityProps, all: IConstruct[]): cloudwatch.Dashboard {
  const p = props.prefix;
  const queues = all.filter((c): c is sqs.Queue => c instanceof sqs.Queue);
  const work = queues.filter((q) => q.deadLetterQueue);
  const dead = queues.filter((q) => !q.deadLetterQueue);
  const functions = all.filter((c): c is lambda.Function => c instanceof lambda.Function);
  const graph = (title: string, left: cloudwatch.IMetric[], width = 12) =>
    new cloudwatch.GraphWidget({ title, left, width, height: 6 });
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', { dashboardName: p });
  dashboard.addWidgets(
    graph('Messages', [
      serviceMetric(p, 'MessagesAccepted', 'api'),
      serviceMetric(p, 'MessagesSent', 'events'),
      serviceMetric(p, 'MessagesDelivered', 'events'),
      serviceMetric(p, 'MessagesFailed', 'events'),
      serviceMetric(p, 'MessagesReceived', 'events'),
    ]),
    graph('Webhooks', [
      serviceMetric(p, 'WebhookAttempts', 'webhooks'),
      serviceMetric(p, 'WebhookDelivered', 'webhooks'),
      serviceMetric(p, 'WebhookFailures', 'webhooks'),
    ]),
  );
  dashboard.addWidgets(
    graph(
      'Oldest message per queue (s)',
      work.map((q) =>
        q.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
      ),
    ),
    graph(
      'Dead-letter queues (messages)',
      dead.map((q) =>
        q.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      ),
    ),
  );
  dashboard.addWidgets(
    graph('API requests and 5xx', [
      props.httpApi.metricCount({ period: Duration.minutes(5) }),
      props.httpApi.metricServerError({ period: Duration.minutes(5) }),
    ]),
    graph('API latency p50 / p99 (ms)', [
      props.httpApi.metricLatency({ period: Duration.minutes(5), statistic: 'p50' }),
      props.httpApi.metricLatency({ period: Duration.minutes(5), statistic: 'p99' }),
    ]),
  );
  dashboard.addWidgets(
    graph(
      'Function errors',
      functions.map((f) => f.metricErrors({ period: Duration.minutes(5) })),
    ),
    graph(
      'Function duration p99 (ms)',
      functions.map((f) => f.metricDuration({ period: Duration.minutes(5), statistic: 'p99' })),
    ),
  );
  dashboard.addWidgets(
    graph('Connection host tasks answering the load balancer', [healthyHosts(props)]),
    graph('Connection host CPU and memory (%)', [
      props.hostService.metricCpuUtilization({ period: Duration.minutes(5) }),
      props.hostService.metricMemoryUtilization({ period: Duration.minutes(5) }),
    ]),
    graph('Host heartbeats past the memory budget', [serviceMetric(p, 'HostFullBeats', 'connection-host')]),
  );
  return dashboard;
}

/**
 * Host tasks the load balancer finds alive (liveness, docs/deploy.md "Health checks"): a free
 * metric, where Container Insights' task counts cost about $9 a month (infra/host-settings.ts).
 */
function healthyHosts(props: ObservabilityProps) {
  return props.hostTargets.metrics.healthyHostCount({ period: Duration.minutes(1), statistic: 'Minimum' });
}

/** A command older than this means no host is taking its shard (missing, crashed or stuck). */
export const OLDEST_MESSAGE_ALARM_SECONDS = 300;

export interface ObservabilityProps {
  prefix: string;
  /** Subscribed to the alarm topic when given (the address confirms the subscription once). */
  alarmEmail?: string;
  /** An existing SNS topic (your paging or chat integration) to notify instead of a new one. */
  alarmTopicArn?: string;
  hostService: ecs.FargateService;
  /** The hosts' target group: its healthy count is the tasks that are up and answering. */
  hostTargets: elbv2.ApplicationTargetGroup;
  /** The fewest tasks there should be (the HostMinTasks parameter; auto-scaling may run more). */
  hostMinTasks: number;
  httpApi: HttpApi;
}

/**
 * Alarms over everything in the stack, found by walking the construct tree so that a queue or a
 * function added later is covered without an edit here: the age of the oldest message in every queue
 * that has a dead-letter queue, errors and throttles of every Lambda function, fewer running host
 * tasks than desired, and a host past its memory budget. Every alarm in the stack (the per-DLQ ones from queues.ts included) notifies
 * one SNS topic. Call it last in the stack's constructor.
 */
export function addObservability(scope: Construct, props: ObservabilityProps): sns.ITopic {
  const topic = props.alarmTopicArn
    ? sns.Topic.fromTopicArn(scope, 'AlarmTopic', props.alarmTopicArn)
    : new sns.Topic(scope, 'AlarmTopic', { displayName: `${props.prefix} alarms`, enforceSSL: true });
  if (props.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
  const stack = Stack.of(scope);
  const all = stack.node.findAll();
  const alarm = (id: string, metric: cloudwatch.IMetric, description: string, threshold = 0, periods = 1) =>
    new cloudwatch.Alarm(scope, id, {
      metric,
      threshold,
      evaluationPeriods: periods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });

  for (const c of all) {
    if (c instanceof sqs.Queue && c.deadLetterQueue) {
      alarm(
        `OldestMessageAlarm-${c.node.id}`,
        c.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
        `A message has waited over ${OLDEST_MESSAGE_ALARM_SECONDS} s in a queue (command queues: no host is consuming the shard)`,
        OLDEST_MESSAGE_ALARM_SECONDS,
        3,
      );
    }
    if (c instanceof lambda.Function) {
      alarm(`ErrorsAlarm-${c.node.id}`, c.metricErrors({ period: Duration.minutes(5) }), 'Lambda errors');
      alarm(
        `ThrottlesAlarm-${c.node.id}`,
        c.metricThrottles({ period: Duration.minutes(5) }),
        'Lambda throttles',
      );
    }
  }

  alarm(
    'Api5xxAlarm',
    props.httpApi.metricServerError({ period: Duration.minutes(5) }),
    'API answered 5xx',
    5,
  );

  // Fewer tasks answering the load balancer than the minimum for 5 minutes (crash loop, failed
  // deployment, capacity). Rolling deployments keep 100 % healthy, so they do not trip it; no data
  // at all (no task ever registered) counts as too few.
  const hostsAlarm = new cloudwatch.Alarm(scope, 'HostTasksBelowDesiredAlarm', {
    metric: healthyHosts(props),
    threshold: props.hostMinTasks,
    evaluationPeriods: 5,
    comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    alarmDescription:
      'Fewer connection host tasks answering the load balancer than the minimum (HostMinTasks)',
  });
  // Made once the service is stable (CloudFormation waits for that), so a first deploy, whose tasks
  // take minutes to become healthy, does not page anyone.
  hostsAlarm.node.addDependency(props.hostService);

  // A host past its memory budget takes no more shards (connection-host/memory-budget.ts): capacity
  // is short while auto-scaling catches up, or for good at its maximum.
  alarm(
    'HostOverMemoryBudgetAlarm',
    serviceMetric(props.prefix, 'HostFullBeats', 'connection-host'),
    'A connection host is past its memory budget and takes no more shards (raise HostMaxTasks or the task memory)',
  );

  addDashboard(scope, props, all);

  const action = new actions.SnsAction(topic);
  for (const c of stack.node.findAll()) if (c instanceof cloudwatch.Alarm) c.addAlarmAction(action);
  return topic;
}
