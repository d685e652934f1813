/**
 * The one price table `npm run cost` multiplies the synthesised template by. AWS list prices for
 * us-east-1 (N. Virginia), on-demand, without the free tier, savings plans or taxes, as published
 * when this table was written (PRICES_AS_OF). Another region or a later date: edit this file only.
 */
export const PRICES_REGION = 'us-east-1';
export const PRICES_AS_OF = '2025-11 list prices (table written 2026-11-26)';

/** Hours in the month every monthly figure uses (AWS's own convention: 730). */
export const HOURS_PER_MONTH = 730;

export const PRICES = {
  fargate: {
    /** Linux, per vCPU-hour and per GB-hour. */
    x86_64: { vcpuHour: 0.04048, gbHour: 0.004445 },
    arm64: { vcpuHour: 0.03238, gbHour: 0.00356 },
  },
  natGateway: { hour: 0.045, gbProcessed: 0.045 },
  alb: { hour: 0.0225, lcuHour: 0.008 },
  /** Every public IPv4 address, in use or not (NAT's Elastic IP, the load balancer's, a task's). */
  publicIpv4Hour: 0.005,
  /** Interface endpoints (PrivateLink), per endpoint per AZ; gateway endpoints (DynamoDB, S3) are free. */
  interfaceEndpointAzHour: 0.01,
  cloudwatch: {
    /** A standard-resolution alarm, per metric it evaluates (a metric-math alarm pays for each). */
    alarmMetricMonth: 0.1,
    dashboardMonth: 3,
    customMetricMonth: 0.3,
    logsIngestedGb: 0.5,
  },
  secretMonth: 0.4,
  /** A hosted zone (the first 25), and a WAF web ACL before its rules and requests; CloudFront has no monthly fee. */
  route53HostedZoneMonth: 0.5,
  wafWebAclMonth: 5,
  kms: { keyMonth: 1, perTenThousandRequests: 0.03 },
  dynamodbOnDemand: { perMillionWrites: 0.625, perMillionReads: 0.125 },
  sqs: { perMillionStandard: 0.4, perMillionFifo: 0.5 },
  lambdaArm64: { gbSecond: 0.0000133334, perMillionRequests: 0.2 },
  httpApiPerMillion: 1,
  s3: { perThousandPuts: 0.005, perThousandGets: 0.0004 },
  /** Data out to the internet (the first 10 TB tier). */
  dataOutGb: 0.09,
} as const;

/**
 * Container Insights (standard) on one ECS service is billed as custom metrics: about ten
 * per cluster, a dozen per service and eight per task family (ECS/ContainerInsights), each a metric
 * month. An approximation, stated as one.
 */
export const CONTAINER_INSIGHTS_METRICS = 30;
