import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { deadLetterQueueName, type QueueDef, queueName } from '#shared/aws/resources';

export interface QueueWithDlq {
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
  alarm: cloudwatch.Alarm;
}

/** A queue, its dead-letter queue (FIFO for FIFO queues) and an alarm on anything landing there. */
export function queueFrom(scope: Construct, prefix: string, def: QueueDef): QueueWithDlq {
  const fifo = def.fifo || undefined;
  const deadLetterQueue = new sqs.Queue(scope, `Dlq-${def.id}`, {
    queueName: deadLetterQueueName(prefix, def),
    fifo,
    retentionPeriod: Duration.days(14),
    enforceSSL: true,
  });
  const queue = new sqs.Queue(scope, `Queue-${def.id}`, {
    queueName: queueName(prefix, def),
    fifo,
    visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
    enforceSSL: true,
  });
  const alarm = deadLetterQueue
    .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' })
    .createAlarm(scope, `DlqAlarm-${def.id}`, {
      alarmName: `${deadLetterQueueName(prefix, def)}-not-empty`,
      alarmDescription: `Messages from ${queueName(prefix, def)} failed ${def.maxReceiveCount} times`,
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  return { queue, deadLetterQueue, alarm };
}
