import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  PutItemCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { pct } from './stats.ts';

const ITEM_BYTES = 300;

/**
 * What the storage itself allows, on the same DynamoDB Local the service uses in this run: sequential
 * PutItem, 16 in flight, and BatchWriteItem of 25, with 300-byte items in a scratch table.
 */
export async function measureStorageFloor(env: Record<string, string>, n = 300) {
  const ddb = new DynamoDBClient({
    region: env.AWS_REGION ?? 'us-east-1',
    endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const table = `floor-${Date.now()}`;
  await ddb.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await waitUntilTableExists({ client: ddb, maxWaitTime: 30 }, { TableName: table });
  const pad = 'x'.repeat(ITEM_BYTES - 40);
  let k = 0;
  const item = () => ({ pk: { S: `k${k++}` }, v: { S: pad } });
  const put = async () => {
    const t0 = performance.now();
    await ddb.send(new PutItemCommand({ TableName: table, Item: item() }));
    return performance.now() - t0;
  };
  try {
    const seqStart = performance.now();
    const seq: number[] = [];
    for (let i = 0; i < n; i++) seq.push(await put());
    const seqS = (performance.now() - seqStart) / 1000;

    const parStart = performance.now();
    let left = n * 2;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (left-- > 0) await put();
      }),
    );
    const parS = (performance.now() - parStart) / 1000;

    const batches = Math.ceil((n * 2) / 25);
    const batchStart = performance.now();
    for (let b = 0; b < batches; b++) {
      await ddb.send(
        new BatchWriteItemCommand({
          RequestItems: { [table]: Array.from({ length: 25 }, () => ({ PutRequest: { Item: item() } })) },
        }),
      );
    }
    const batchS = (performance.now() - batchStart) / 1000;
    seq.sort((a, b) => a - b);
    return {
      'sequential PutItem': { perSecond: Math.round(n / seqS), p50Ms: +pct(seq, 50).toFixed(1) },
      'PutItem, 16 in flight': { perSecond: Math.round((n * 2) / parS), p50Ms: Number.NaN },
      'BatchWriteItem of 25': { perSecond: Math.round((batches * 25) / batchS), p50Ms: Number.NaN },
    };
  } finally {
    await ddb.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
    ddb.destroy();
  }
}
