import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { runtimeEnv } from '../config/env.ts';

/**
 * One set of AWS SDK clients per process. Locally the endpoints come from the SDK's own
 * `AWS_ENDPOINT_URL_<SERVICE>` variables, which the launcher sets: the only difference from the cloud.
 */
let dynamo: DynamoDBClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

const region = () => runtimeEnv().AWS_REGION;

/**
 * Every client resolves its middleware stack once per command type (`cacheMiddleware`), not on every
 * request (about a fifth of the SDK's CPU per request, docs/benchmarks.md). So middleware must be
 * added before a client's first request: one added later is not seen by the commands already sent.
 */
const once = { cacheMiddleware: true } as const;

/**
 * Without the SDK's logger middleware: we pass no logger, yet it copies every request and response
 * through the schemas' sensitive-data filter for its no-op logger (about 4 % of the busy CPU of the
 * inbound pipeline, docs/benchmarks.md).
 */
function quiet<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

export function dynamoClient(): DynamoDBClient {
  dynamo ??= quiet(new DynamoDBClient({ ...once, region: region() }));
  return dynamo;
}

export function s3Client(): S3Client {
  s3 ??= quiet(
    new S3Client({
      ...once,
      region: region(),
      forcePathStyle: Boolean(runtimeEnv().AWS_ENDPOINT_URL_S3),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  );
  return s3;
}

export function sqsClient(): SQSClient {
  // Local SQS servers answer queue URLs on a host name of their own; the endpoint is what counts.
  sqs ??= quiet(
    new SQSClient({ ...once, region: region(), useQueueUrlAsEndpoint: !runtimeEnv().AWS_ENDPOINT_URL_SQS }),
  );
  return sqs;
}
