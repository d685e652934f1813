import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { dynamoClient, sqsClient } from '#shared/aws/clients';
import { deadLetterQueueName, queueName, queues, tableName, tables } from '#shared/aws/resources';
import { bootstrapResources } from '../../scripts/local/bootstrap.ts';

describe('resource bootstrap', () => {
  it('creates tables, TTL and queues with DLQ redrive, and running it again changes nothing', async () => {
    const prefix = `boot${Date.now() % 100000}`;
    await bootstrapResources(prefix, 2);
    await bootstrapResources(prefix, 2);

    const t = await dynamoClient().send(
      new DescribeTableCommand({ TableName: tableName(prefix, tables.data) }),
    );
    expect(t.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2']);
    const ttl = await dynamoClient().send(
      new DescribeTimeToLiveCommand({ TableName: tableName(prefix, tables.data) }),
    );
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe('expiresAt');

    const url = await sqsClient().send(
      new GetQueueUrlCommand({ QueueName: queueName(prefix, queues.webhooks) }),
    );
    const attrs = await sqsClient().send(
      new GetQueueAttributesCommand({ QueueUrl: url.QueueUrl, AttributeNames: ['RedrivePolicy'] }),
    );
    const redrive = JSON.parse(attrs.Attributes?.RedrivePolicy ?? '{}');
    expect(redrive.maxReceiveCount).toBe(queues.webhooks.maxReceiveCount);
    expect(redrive.deadLetterTargetArn).toContain(deadLetterQueueName(prefix, queues.webhooks));

    const fifo = await sqsClient().send(new GetQueueUrlCommand({ QueueName: `${prefix}-commands-1.fifo` }));
    expect(fifo.QueueUrl).toBeTruthy();
  });
});
