import { RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Days every log group keeps its events unless `-c logRetentionDays=...` says otherwise. */
export const DEFAULT_LOG_RETENTION_DAYS = 30;

/** The retention periods CloudWatch Logs accepts (days). */
export const RETENTION_DAYS = new Set(
  Object.values(logs.RetentionDays).filter((v): v is number => typeof v === 'number'),
);

/** How long the stack's log groups keep events, and whether `cdk destroy` keeps them. */
export interface LogSettings {
  retentionDays?: number;
  /** Keep the log groups on `cdk destroy` (`-c retainLogs=true`); deleted with the stack by default. */
  retain?: boolean;
}

/** One of the stack's log groups (functions, host, API access, VPC flow logs), all on the same settings. */
export function logGroup(scope: Construct, id: string, s: LogSettings = {}): logs.LogGroup {
  return new logs.LogGroup(scope, id, {
    retention: (s.retentionDays ?? DEFAULT_LOG_RETENTION_DAYS) as logs.RetentionDays,
    removalPolicy: s.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
}
