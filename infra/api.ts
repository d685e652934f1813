import { ArnFormat, Duration, type Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { type FunctionBase, grantCommon, pick } from './function-base.ts';
import { nodeFunction } from './functions.ts';
import { grantMediaReadWrite } from './grants.ts';
import { logGroup } from './log-groups.ts';
import type { ServiceSecrets } from './secrets.ts';

/*
 * The API: its function (the only one that signs tokens) and the HTTP API in front of it, with the
 * stage's throttle and access log. Everything here is created in the stack itself, so logical IDs
 * are the same as when it was written inline in infra/stack.ts.
 */

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

export interface ApiFunctionProps {
  prefix: string;
  service: Record<string, string>;
  cors: Record<string, string>;
  secrets: ServiceSecrets;
  commandQueues: sqs.IQueue[];
  webhooksQueue: sqs.IQueue;
  eventsQueue: sqs.IQueue;
}

/** The API's function with its grants: the store, media, every command shard and the webhooks queue. */
export function apiFunction(stack: Stack, base: FunctionBase, props: ApiFunctionProps): lambda.Function {
  const { jwtSecret, adminKey } = props.secrets;
  const api = nodeFunction(stack, 'ApiFunction', 'api', {
    environment: {
      ...base.environment,
      ...pick(props.service, 'PAYMENT_UPI_ID', 'PAYMENT_UPI_NAME', 'TTS_PROVIDER'),
      ...props.cors,
      // Only the API signs and verifies tokens.
      JWT_SECRET_ARN: jwtSecret.secretArn,
      ADMIN_API_KEY_ARN: adminKey.secretArn,
    },
    timeout: Duration.seconds(29),
    memorySize: 1024,
    logs: base.logs,
  });
  grantCommon(base, api);
  jwtSecret.grantRead(api);
  adminKey.grantRead(api);
  grantMediaReadWrite(base.media, api);
  for (const cq of props.commandQueues) cq.grantSendMessages(api);
  props.webhooksQueue.grantSendMessages(api);
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
        stack.formatArn({
          service: 'secretsmanager',
          resource: 'secret',
          resourceName: `${props.prefix}/tenants/*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
  );
  // /health reads the events queue's attributes; the API never sends to it.
  props.eventsQueue.grant(api, 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl');
  return api;
}

export interface HttpApiProps {
  prefix: string;
  rateLimit?: number;
  burstLimit?: number;
}

/** The HTTP API in front of the function, its one throttled stage and that stage's access log. */
export function httpApiFor(stack: Stack, api: lambda.IFunction, base: FunctionBase, props: HttpApiProps) {
  const httpApi = new HttpApi(stack, 'HttpApi', {
    apiName: `${props.prefix}-api`,
    defaultIntegration: new HttpLambdaIntegration('ApiIntegration', api),
    createDefaultStage: false,
  });
  // One line per request: who, what, the answer and the time taken; no headers, bodies or query
  // strings, so no key or token is ever logged.
  const accessLogs = logGroup(stack, 'ApiAccessLogs', base.logs);
  new HttpStage(stack, 'ApiStage', {
    httpApi,
    stageName: '$default',
    autoDeploy: true,
    throttle: {
      rateLimit: props.rateLimit ?? API_RATE_LIMIT,
      burstLimit: props.burstLimit ?? API_BURST_LIMIT,
    },
    accessLogSettings: {
      destination: new LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(JSON.stringify(API_ACCESS_LOG_FIELDS)),
    },
  });
  return httpApi;
}
