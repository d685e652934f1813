import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** A command older than this means no host is taking its shard (missing, crashed or stuck). */
export const OLDEST_MESSAGE_ALARM_SECONDS = 300;

export interface ObservabilityProps {
  prefix: string;
  /** Subscribed to the alarm topic when given (the address confirms the subscription once). */
  alarmEmail?: string;
  hostService: ecs.FargateService;
  clusterName: string;
  httpApi: HttpApi;
}

/**
 * Alarms over everything in the stack, found by walking the construct tree so that a queue or a
 * function added later is covered without an edit here: the age of the oldest message in every queue
 * that has a dead-letter queue, errors and throttles of every Lambda function, and fewer running host
 * tasks than desired. Every alarm in the stack (the per-DLQ ones from queues.ts included) notifies
 * one SNS topic. Call it last in the stack's constructor.
 */
export function addObservability(scope: Construct, props: ObservabilityProps): sns.Topic {
  const topic = new sns.Topic(scope, 'AlarmTopic', {
    displayName: `${props.prefix} alarms`,
    enforceSSL: true,
  });
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

  // Container Insights: running below desired for 5 minutes (crash loop, failed deployment, capacity).
  const dims = { ClusterName: props.clusterName, ServiceName: props.hostService.serviceName };
  const insight = (metricName: string) =>
    new cloudwatch.Metric({
      namespace: 'ECS/ContainerInsights',
      metricName,
      dimensionsMap: dims,
      period: Duration.minutes(1),
      statistic: 'Average',
    });
  alarm(
    'HostTasksBelowDesiredAlarm',
    new cloudwatch.MathExpression({
      expression: 'desired - running',
      usingMetrics: { desired: insight('DesiredTaskCount'), running: insight('RunningTaskCount') },
      period: Duration.minutes(1),
    }),
    'Fewer connection host tasks running than desired',
    0,
    5,
  );

  const action = new actions.SnsAction(topic);
  for (const c of stack.node.findAll()) if (c instanceof cloudwatch.Alarm) c.addAlarmAction(action);
  return topic;
}
