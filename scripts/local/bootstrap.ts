import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BucketAlreadyOwnedByYou,
  CreateBucketCommand,
  PutBucketLifecycleConfigurationCommand,
} from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { dynamoClient, s3Client, sqsClient } from '#shared/aws/clients';
import {
  allQueues,
  type BucketDef,
  bucketName,
  buckets,
  deadLetterQueueName,
  type QueueDef,
  queueName,
  type TableDef,
  tableName,
  tables,
} from '#shared/aws/resources';

/** Creates every table, bucket and queue from the shared definition. Safe to run again. */
export async function bootstrapResources(prefix: string, shardCount: number): Promise<void> {
  await Promise.all(Object.values(tables).map((t) => ensureTable(prefix, t)));
  await Promise.all(Object.values(buckets).map((b) => ensureBucket(prefix, b)));
  await Promise.all(allQueues(shardCount).map((q) => ensureQueue(prefix, q)));
}

async function ensureTable(prefix: string, def: TableDef): Promise<void> {
  const TableName = tableName(prefix, def);
  const keys = [def.partitionKey, def.sortKey, ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const attributes = [...new Map(keys.map((k) => [k.name, k])).values()];
  try {
    await dynamoClient().send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes.map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
        KeySchema: [
          { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: def.indexes.length
          ? def.indexes.map((i) => ({
              IndexName: i.indexName,
              KeySchema: [
                { AttributeName: i.partitionKey.name, KeyType: 'HASH' },
                { AttributeName: i.sortKey.name, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            }))
          : undefined,
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  }
  if (def.ttlAttribute) {
    const ttl = await dynamoClient().send(new DescribeTimeToLiveCommand({ TableName }));
    if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
      await dynamoClient().send(
        new UpdateTimeToLiveCommand({
          TableName,
          TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
        }),
      );
    }
  }
}

async function ensureBucket(prefix: string, def: BucketDef): Promise<void> {
  const Bucket = bucketName(prefix, def);
  try {
    await s3Client().send(new CreateBucketCommand({ Bucket }));
  } catch (err) {
    const code = (err as { name?: string }).name;
    if (!(err instanceof BucketAlreadyOwnedByYou) && code !== 'BucketAlreadyExists') throw err;
  }
  if (def.expiring.length > 0) {
    try {
      await s3Client().send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket,
          LifecycleConfiguration: {
            Rules: def.expiring.map(({ prefix, days }) => ({
              ID: `expire-${prefix.replace(/\W/g, '')}`,
              Status: 'Enabled',
              Filter: { Prefix: prefix },
              Expiration: { Days: days },
            })),
          },
        }),
      );
    } catch (err) {
      // Some local S3 servers do not implement lifecycle rules; the cloud stack sets the same rule.
      if ((err as { name?: string }).name !== 'NotImplemented') throw err;
    }
  }
}

async function ensureQueue(prefix: string, def: QueueDef): Promise<void> {
  const fifo = def.fifo ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' } : {};
  const dlq = await sqsClient().send(
    new CreateQueueCommand({
      QueueName: deadLetterQueueName(prefix, def),
      Attributes: { ...fifo, MessageRetentionPeriod: String(14 * 86_400) },
    }),
  );
  const dlqAttrs = await sqsClient().send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  await sqsClient().send(
    new CreateQueueCommand({
      QueueName: queueName(prefix, def),
      Attributes: {
        ...fifo,
        VisibilityTimeout: String(def.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqAttrs.Attributes?.QueueArn,
          maxReceiveCount: def.maxReceiveCount,
        }),
      },
    }),
  );
}
